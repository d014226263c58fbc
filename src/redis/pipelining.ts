// Auto-pipelining only while a command connection is busy. ioredis's auto-pipelining (enableAutoPipelining) puts
// every command into a pipeline written at the next setImmediate. For a command issued while nothing else waits
// (questions one at a time) that costs more than the command: a Pipeline object with every defined script copied
// onto it (14 on the store's connection), its promise, the setImmediate hop and a nextTick per reply. Measured on
// the lifecycle bench's loop one at a time (2-core machine, load ~18, alternating): 823-1,063 us of CPU per
// lifecycle auto-pipelined, 631-684 us with this (issue #19 goal 2).
import { Cluster } from 'ioredis';
import type { RedisClient } from './topology.js';

/**
 * Makes `client` write a command at once when none is waiting for its reply and none is queued for the next
 * auto-pipelined batch, and batch it otherwise (from the second command on, those issued together still go out
 * in one write). A command never overtakes one issued before it: it is written at once only when nothing is
 * queued. ioredis reads enableAutoPipelining for each command, so the option answers for the moment of the call.
 * A Cluster keeps ioredis's own auto-pipelining (its queues are per node).
 */
export function pipelineWhenBusy(client: RedisClient): void {
  if (client instanceof Cluster) return;
  Object.defineProperty(client.options, 'enableAutoPipelining', {
    configurable: true,
    enumerable: true,
    get: () => client.commandQueue.length > 0 || client.autoPipelineQueueSize > 0,
  });
}

// ASKING's own promise, caught. During a Cluster resharding, a key already moved to the importing node is answered
// `ASK` by the slot's owner; ioredis (6.0.0, cluster/index.js tryConnection) then sends ASKING to the importing
// node, then the command, and drops ASKING's promise. A connection that closes before ASKING's reply (a stop, or
// a drop, while a command is redirected: the inbox's blocking read while its stream's slot migrates) rejects it
// "Connection is closed." with nobody to catch it: an unhandled rejection, which ends a Node process by default.
// The command itself is failed, or tried again, through its own promise; ASKING's outcome matters to nobody.
import type { Cluster, Redis } from 'ioredis';

/** Makes `node.asking()` catch its own rejection (the promise returned still rejects for whoever holds it). */
function catchAsking(node: Redis): void {
  const asking = node.asking.bind(node);
  node.asking = (callback) => {
    const sent = asking(callback);
    sent.catch(() => undefined);
    return sent;
  };
}

/**
 * Catches ASKING's rejection on every connection `cluster` opens to a node (each is announced by '+node' before
 * any command is sent on it), and on every duplicate of it: BullMQ duplicates a connection template for each
 * blocking connection of a Worker or QueueEvents (RedisConnections.template).
 */
export function catchAskings(cluster: Cluster): Cluster {
  cluster.on('+node', catchAsking);
  const duplicate = cluster.duplicate.bind(cluster);
  cluster.duplicate = (nodes, options) => catchAskings(duplicate(nodes, options));
  return cluster;
}

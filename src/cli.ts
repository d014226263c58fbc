#!/usr/bin/env node
// Entry point of `elicit-relay` and `npm start`. `ask` and `call` are the Automations API's client: they need
// no bot configuration and load only the client, so a pipeline step starts at once; anything else runs the bot
// (bot-cli.ts), whose modules take seconds to load.
import { isClientCommand, runClientProcess } from './client/index.js';

const argv = process.argv.slice(2);
if (isClientCommand(argv)) process.exit(await runClientProcess(argv));
else await import('./bot-cli.js');

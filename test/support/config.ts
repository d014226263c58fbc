// Loads a configuration that must describe a bot connected to Slack (the system tests and the benchmark
// start the bot against the stand-in); sandbox settings are a mistake of the test.
import {
  connectedConfig,
  loadConfig,
  type ConfigSources,
  type SlackAppConfig,
} from '../../src/config/index.js';

export function loadSlackConfig(sources: ConfigSources): SlackAppConfig {
  const config = connectedConfig(loadConfig(sources));
  if (!config) throw new Error('these settings describe the sandbox: give a bot token or the OAuth settings');
  return config;
}

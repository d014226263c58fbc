import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { InteractionRoutes } from '../../src/slack/listeners/routes.js';

/** The routes mounted on a stand-in for Bolt's App: the global middleware they register, and how many. */
function mounted(routes: InteractionRoutes): Middleware<AnyMiddlewareArgs>[] {
  const used: Middleware<AnyMiddlewareArgs>[] = [];
  const app = { use: (m: Middleware<AnyMiddlewareArgs>) => void used.push(m) } as unknown as App;
  routes.mount(app);
  return used;
}

/** Runs `dispatch` on a request's arguments as Bolt builds them; says who handled it. */
async function handledBy(dispatch: Middleware<AnyMiddlewareArgs>, args: Record<string, unknown>) {
  const seen: string[] = [];
  const ack = () => Promise.resolve(void seen.push('ack'));
  const next = () => Promise.resolve(void seen.push('next'));
  await dispatch({ ack, next, context: {}, logger: undefined, client: undefined, ...args } as never);
  return seen;
}

function routesSaying(seen: string[]): InteractionRoutes {
  const routes = new InteractionRoutes();
  const says = (what: string) => () => Promise.resolve(void seen.push(what));
  routes.submission('form', says('submit form'));
  routes.close('form', says('close form'));
  routes.action('respond', says('respond'));
  routes.action(/^link_\d+$/, says('link'));
  routes.command('/mcp', says('/mcp'));
  routes.event('app_home_opened', says('home'));
  routes.blockSuggestion(says('suggest'));
  return routes;
}

describe('interaction routes', () => {
  it('register one global middleware, no per-kind listener chains', () => {
    expect(mounted(routesSaying([]))).toHaveLength(1);
  });

  it('hand each kind of request to its handler by id or type, ack unknown interactions, pass the rest on', async () => {
    const seen: string[] = [];
    const [dispatch] = mounted(routesSaying(seen));
    if (!dispatch) throw new Error('nothing mounted');
    const view = (type: string, callbackId: string) => ({
      body: { type },
      view: { callback_id: callbackId },
    });
    expect(await handledBy(dispatch, view('view_submission', 'form'))).toEqual([]);
    expect(await handledBy(dispatch, view('view_closed', 'form'))).toEqual([]);
    expect(await handledBy(dispatch, view('view_submission', 'other'))).toEqual(['ack']);
    const click = (actionId: string) => ({
      body: { type: 'block_actions' },
      action: { action_id: actionId },
    });
    expect(await handledBy(dispatch, click('respond'))).toEqual([]);
    expect(await handledBy(dispatch, click('link_3'))).toEqual([]);
    expect(await handledBy(dispatch, click('nobody'))).toEqual(['ack']);
    const command = (name: string) => ({ body: {}, command: { command: name } });
    expect(await handledBy(dispatch, command('/mcp'))).toEqual([]);
    expect(await handledBy(dispatch, command('/other'))).toEqual(['next']);
    const event = (type: string) => ({ body: { type: 'event_callback' }, event: { type } });
    expect(await handledBy(dispatch, event('app_home_opened'))).toEqual([]);
    expect(await handledBy(dispatch, event('message'))).toEqual(['next']);
    expect(await handledBy(dispatch, { body: { type: 'block_suggestion' }, options: {} })).toEqual([]);
    expect(await handledBy(dispatch, { body: { type: 'shortcut' }, shortcut: {} })).toEqual(['next']);
    expect(seen).toEqual(['submit form', 'close form', 'respond', 'link', '/mcp', 'home', 'suggest']);
  });
});

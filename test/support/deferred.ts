// A promise settled from outside, for a test that holds work until it says so (a gate) or awaits an event a
// callback reports: `const { promise: held, resolve: release } = deferred();` instead of a `let` set inside
// `new Promise`.

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

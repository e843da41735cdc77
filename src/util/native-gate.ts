/**
 * The calls a worker thread makes into native addons (onnxruntime for OCR, sharp), and the end of
 * the thread. A thread terminated while an addon is inside a call takes the whole process down:
 * node-addon-api throws a C++ exception nothing catches ("terminate called after throwing an
 * instance of 'Napi::Error'", exit 134 where a signal should give 130 or 143). So the main thread
 * ends a worker only through its gate: once no native call is in flight, the gate closes (no new
 * call starts), then the thread is terminated.
 *
 * The gate is one Int32 shared by the two threads: the number of native calls in flight, or
 * CLOSED once the main thread has closed it.
 */
const CLOSED = -1;

type WaitAsync = (
  a: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

/** A gate for one worker, handed to it in its workerData. */
export function newGate(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

let own: Int32Array | undefined;

/** On a worker thread: the gate its calls go through. The main thread has none and calls straight. */
export function useGate(gate: Int32Array | undefined): void {
  own = gate;
}

/**
 * `call()`, counted as a native call in flight. Once the gate is closed no call starts: the thread
 * is about to be terminated, and the promise never settles.
 */
export async function nativeCall<T>(call: () => Promise<T>): Promise<T> {
  const gate = own;
  if (!gate) return call();
  for (;;) {
    const n = Atomics.load(gate, 0);
    if (n === CLOSED) return new Promise<T>(() => {});
    if (Atomics.compareExchange(gate, 0, n, n + 1) === n) break;
  }
  try {
    return await call();
  } finally {
    Atomics.sub(gate, 0, 1);
    Atomics.notify(gate, 0);
  }
}

/** On the main thread: close the gate as soon as no native call is in flight. */
export async function closeGate(gate: Int32Array): Promise<void> {
  const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
  for (;;) {
    const n = Atomics.compareExchange(gate, 0, 0, CLOSED);
    if (n === 0 || n === CLOSED) return;
    const w = waitAsync(gate, 0, n);
    if (w.async) await w.value;
  }
}

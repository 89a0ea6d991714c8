/** The part of autocannon's API scripts/load.ts uses (the package ships no types). */
declare module 'autocannon' {
  export interface Histogram {
    average: number
    p50: number
    p90: number
    p99: number
    max: number
  }
  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
  }
  export interface Options {
    url: string
    connections?: number
    pipelining?: number
    duration?: number
    timeout?: number
    requests?: Request[]
  }
  export interface Result {
    requests: Histogram & { total: number }
    latency: Histogram
    throughput: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
  }
  export interface Instance extends PromiseLike<Result> {
    on(event: 'tick', cb: (t: { counter: number }) => void): void
  }
  function autocannon(opts: Options): Instance
  export default autocannon
}

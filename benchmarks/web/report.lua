-- benchmarks/web/report.lua - wrk reporter: after the run, prints one line
--   WRKRESULT requests=N duration_us=N status_errors=N connect=N read=N write=N
--             timeout=N p50_us=N p90_us=N p99_us=N mean_us=N max_us=N
-- status_errors counts responses that were not 2xx/3xx. Only done() is
-- defined, so wrk keeps its fast path (no per-response Lua calls).
done = function(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "WRKRESULT requests=%d duration_us=%d status_errors=%d connect=%d read=%d write=%d timeout=%d " ..
      "p50_us=%d p90_us=%d p99_us=%d mean_us=%d max_us=%d\n",
      summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99),
      math.floor(latency.mean + 0.5), latency.max))
end

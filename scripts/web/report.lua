-- scripts/web/report.lua - wrk reporter (web_wrk of lib.sh): after the run,
-- prints one line
--   WRKRESULT requests=N duration_us=N status_errors=N connect=N read=N write=N
--             timeout=N p50_us=N p90_us=N p99_us=N mean_us=N max_us=N
-- status_errors counts responses that were not 2xx/3xx.
--
-- Pacing: without WRK_PACE_US in the environment only done() is defined, so
-- wrk keeps its fast path and every connection sends its next request as
-- soon as the last one was answered (a saturating load). With WRK_PACE_US=N
-- each connection first waits a random time of mean N microseconds, uniform
-- over 0..2N (wrk's timers count whole milliseconds, so the wait is rounded
-- up or down at random in proportion, which keeps the mean), so that the
-- offered load is about connections / (N us + latency) requests/s. wrk starts
-- a request's clock when it writes the request, after the wait.
local pace_us = tonumber(os.getenv("WRK_PACE_US") or "")
if pace_us and pace_us > 0 then
   -- every thread has its own Lua state, numbered here so that each one
   -- draws its own waits
   local threads = 0
   setup = function(thread)
      threads = threads + 1
      thread:set("thread_no", threads)
   end
   local seeded = false
   delay = function()
      if not seeded then
         math.randomseed(os.time() * 1000 + (thread_no or 0))
         seeded = true
      end
      local ms = 2 * pace_us * math.random() / 1000
      local whole = math.floor(ms)
      if math.random() < ms - whole then
         whole = whole + 1
      end
      return whole
   end
end

done = function(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "WRKRESULT requests=%d duration_us=%d status_errors=%d connect=%d read=%d write=%d timeout=%d " ..
      "p50_us=%d p90_us=%d p99_us=%d mean_us=%d max_us=%d\n",
      summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99),
      math.floor(latency.mean + 0.5), latency.max))
end

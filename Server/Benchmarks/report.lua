-- Shared by the wrk scripts of run.sh: prints one line "BENCH {json}" with throughput, latency and errors.
function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,'
      .. '"non2xx":%d,"socket_errors":%d}\n',
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout))
end

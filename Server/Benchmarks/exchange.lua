-- wrk script: RFC 8693 token exchange of external ES256 ID tokens (the issuer's keys cached after the first) by a
-- public client registered for the grant; each answer is a new grant with a refresh token for the same user. Limen
-- exchanges a subject token once, so each request sends a token of its own: thread n of N takes every Nth line of
-- the token file from line n + 1 (line 1 went to run.sh's check). Should the file run out, the thread says so and
-- starts again, and the replays count as non-2xx answers.
-- Environment: BENCH_SUBJECT_TOKENS (the file, one ID token a line), BENCH_THREADS (wrk's -t), BENCH_CLIENT_ID,
-- BENCH_LUA_DIR.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

local threads_set_up = 0

function setup(thread)
  threads_set_up = threads_set_up + 1
  thread:set("number", threads_set_up)
end

function init(args)
  local total_threads = tonumber(os.getenv("BENCH_THREADS"))
  tokens = {}
  local line_number = 0
  for line in io.lines(os.getenv("BENCH_SUBJECT_TOKENS")) do
    line_number = line_number + 1
    if line_number > 1 and (line_number - 2) % total_threads == number - 1 then table.insert(tokens, line) end
  end
  next_token = 1
  body_prefix = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange"
    .. "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid_token"
    .. "&client_id=" .. os.getenv("BENCH_CLIENT_ID")
    .. "&subject_token="
end

function request()
  if next_token > #tokens then
    io.stderr:write("exchange.lua: thread " .. number .. " used its " .. #tokens .. " tokens; sending them again\n")
    next_token = 1
  end
  local token = tokens[next_token]
  next_token = next_token + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/x-www-form-urlencoded"}, body_prefix .. token)
end

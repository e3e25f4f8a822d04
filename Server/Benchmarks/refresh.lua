-- wrk script: the refresh grant, one token chain per thread (run wrk with as many connections as threads).
-- Environment: BENCH_TOKENS, a file with one refresh token per line (thread i starts from line i, cycling);
-- BENCH_BASIC, the Authorization header of the confidential client; BENCH_LUA_DIR, this folder.
-- A rotating provider returns a new refresh token in each response: response() carries it on, so the chain never
-- presents a used token. A provider that does not rotate (glewlwyd) returns none, and the thread keeps its token.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

local tokens = {}
for line in io.lines(os.getenv("BENCH_TOKENS")) do
  if line ~= "" then table.insert(tokens, line) end
end
local threads_set_up = 0

function setup(thread)
  thread:set("refresh_token", tokens[threads_set_up % #tokens + 1])
  threads_set_up = threads_set_up + 1
end

local headers = {
  ["Authorization"] = os.getenv("BENCH_BASIC"),
  ["Content-Type"] = "application/x-www-form-urlencoded",
}

function request()
  return wrk.format("POST", nil, headers, "grant_type=refresh_token&refresh_token=" .. refresh_token)
end

function response(status, headers, body)
  if status == 200 then
    local next_token = body:match('"refresh_token"%s*:%s*"([^"]+)"')
    if next_token then refresh_token = next_token end
  end
end

-- wrk script: the refresh grant, one token chain per thread (run wrk with as many connections as threads).
-- Environment: BENCH_TOKENS, a file with one refresh token per line (thread i starts from line i, cycling);
-- BENCH_BASIC, the Authorization header of a confidential client, or else BENCH_CLIENT_ID, a public client's ID sent in
-- the body; BENCH_PROOFS (optional), a file of DPoP proofs for the token endpoint, one a line, each sent once: thread n
-- of BENCH_THREADS takes every BENCH_THREADS-th line from line n (should they run out, the thread says so and starts
-- again, and the replays count as non-2xx answers); BENCH_LUA_DIR, this folder.
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
  thread:set("number", threads_set_up)
end

local headers = {["Content-Type"] = "application/x-www-form-urlencoded"}
local body_prefix = "grant_type=refresh_token"
if os.getenv("BENCH_BASIC") then
  headers["Authorization"] = os.getenv("BENCH_BASIC")
else
  body_prefix = body_prefix .. "&client_id=" .. os.getenv("BENCH_CLIENT_ID")
end
body_prefix = body_prefix .. "&refresh_token="

function init(args)
  proofs = {}
  next_proof = 1
  local file = os.getenv("BENCH_PROOFS")
  if not file then return end
  local total_threads = tonumber(os.getenv("BENCH_THREADS"))
  local line_number = 0
  for line in io.lines(file) do
    if line_number % total_threads == number - 1 then table.insert(proofs, line) end
    line_number = line_number + 1
  end
end

function request()
  if #proofs > 0 then
    if next_proof > #proofs then
      io.stderr:write("refresh.lua: thread " .. number .. " used its " .. #proofs .. " proofs; sending them again\n")
      next_proof = 1
    end
    headers["DPoP"] = proofs[next_proof]
    next_proof = next_proof + 1
  end
  return wrk.format("POST", nil, headers, body_prefix .. refresh_token)
end

function response(status, headers, body)
  if status == 200 then
    local next_token = body:match('"refresh_token"%s*:%s*"([^"]+)"')
    if next_token then refresh_token = next_token end
  end
end

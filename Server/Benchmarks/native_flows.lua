-- wrk script: native sign-in flows, each connection running one flow after another:
-- POST /flows/FLOW -> POST /flows/interactions/ID -> POST /token with the code and the PKCE verifier (anonymous: no
-- continuation, see below).
-- BENCH_FLOW=sign-in (the default, issue 10 §5): email + password; each connection signs in its own user,
-- flow-N@example.test (N = 1, 2, … per thread): one account's sign-ins from one address run one at a time (the
-- sign-in throttle refuses the others with attempt_in_progress). BENCH_FLOW=anonymous (issue 11 §4): start -> code ->
-- token, the start pressing the guest node's button (action=submit), a new user every time, as every new install of
-- an app makes.
-- Environment: BENCH_FLOW, BENCH_PASSWORD (every sign-in user's), BENCH_CLIENT_ID (a public native client),
-- BENCH_REDIRECT_URI, BENCH_LUA_DIR (this folder). Every flow uses RFC 7636 Appendix B's verifier and challenge (the
-- server keeps no memory of them across flows). Prints report.lua's BENCH line and a FLOWS line with the completed
-- flows and each request's p99.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local report = done

dofile(os.getenv("BENCH_LUA_DIR") .. "/native_client.lua")

local flow = os.getenv("BENCH_FLOW") or "sign-in"
local start_body = flow_start_body("openid email offline_access") .. (flow == "anonymous" and "&action=submit" or "")
local form = { ["Content-Type"] = "application/x-www-form-urlencoded" }
local json = { ["Content-Type"] = "application/json" }

local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("email", string.format("flow-%d@example.test", #threads))
end

function init(args)
  step, interaction, code, flows, broken = "start", nil, nil, 0, 0
  submit_body = string.format('{"node":"credentials","action":"submit","values":{"email":"%s","password":"%s"}}',
    email, os.getenv("BENCH_PASSWORD"))
end

function request()
  if step == "submit" then
    return wrk.format("POST", "/flows/interactions/" .. interaction, json, submit_body)
  elseif step == "token" then
    return wrk.format("POST", "/token", form, token_body(code))
  end
  return wrk.format("POST", "/flows/" .. flow, form, start_body)
end

function response(status, headers, body)
  if step == "start" and flow == "anonymous" then
    code = success_code(status, body)
    if code then step = "token" else broken = broken + 1 end
  elseif step == "start" then
    interaction = started_interaction(status, body)
    if interaction then step = "submit" else broken = broken + 1 end
  elseif step == "submit" then
    code = success_code(status, body)
    if code then step = "token" else broken, step = broken + 1, "start" end
  else
    if issued_tokens(status, body) then flows = flows + 1 else broken = broken + 1 end
    step = "start"
  end
end

function done(summary, latency, requests)
  report(summary, latency, requests)
  local completed, failed = 0, 0
  for _, thread in ipairs(threads) do
    completed = completed + thread:get("flows")
    failed = failed + thread:get("broken")
  end
  io.write(string.format('FLOWS {"flows":%d,"failed":%d,"flows_per_s":%.1f,"request_p99_ms":%.3f}\n',
    completed, failed, completed / (summary.duration / 1e6), latency:percentile(99) / 1000))
end

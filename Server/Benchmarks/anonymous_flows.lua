-- wrk script: anonymous sign-in (issue 11 §4), each connection running one after another:
-- POST /flows/anonymous -> POST /flows/interactions/ID (the guest node's button) -> POST /token with the code and the
-- PKCE verifier. Every run makes a new user, as every new install of an app does.
-- Environment: BENCH_CLIENT_ID (a public native client), BENCH_REDIRECT_URI, BENCH_LUA_DIR (this folder). Every flow
-- uses RFC 7636 Appendix B's verifier and challenge. Prints report.lua's BENCH line (each request's latency) and a
-- FLOWS line with the completed flows and the p99 of each of the three requests.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local report = done

local function escape(text)
  return (text:gsub("[^%w%-%._~]", function(character) return string.format("%%%02X", string.byte(character)) end))
end

local verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
local challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
local client_id, redirect_uri = os.getenv("BENCH_CLIENT_ID"), os.getenv("BENCH_REDIRECT_URI")
local start_body = "client_id=" .. escape(client_id) .. "&redirect_uri=" .. escape(redirect_uri)
  .. "&scope=openid%20offline_access&state=s&nonce=n&code_challenge=" .. challenge .. "&code_challenge_method=S256"
local submit_body = '{"node":"guest","action":"submit","values":{}}'
local form = { ["Content-Type"] = "application/x-www-form-urlencoded" }
local json = { ["Content-Type"] = "application/json" }

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  step, interaction, code, flows, broken = "start", nil, nil, 0, 0
end

function request()
  if step == "submit" then
    return wrk.format("POST", "/flows/interactions/" .. interaction, json, submit_body)
  elseif step == "token" then
    return wrk.format("POST", "/token", form, "grant_type=authorization_code&code=" .. code .. "&redirect_uri="
      .. escape(redirect_uri) .. "&client_id=" .. escape(client_id) .. "&code_verifier=" .. verifier)
  end
  return wrk.format("POST", "/flows/anonymous", form, start_body)
end

function response(status, headers, body)
  if step == "start" then
    interaction = status == 200 and body:match('"interaction"%s*:%s*"([^"]+)"')
    if interaction then step = "submit" else broken = broken + 1 end
  elseif step == "submit" then
    code = status == 200 and body:match('"type"%s*:%s*"success"') and body:match('"code"%s*:%s*"([^"]+)"')
    if code then step = "token" else broken, step = broken + 1, "start" end
  else
    if status == 200 and body:match('"refresh_token"') then flows = flows + 1 else broken = broken + 1 end
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

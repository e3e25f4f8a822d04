-- wrk script: phone-code sign-ins (issue 22 §5), each connection running one after another:
-- POST /flows/phone-code -> submit a new number (node phone) -> submit the code (node code) -> POST /token with the code
-- and the PKCE verifier. Every flow is a new number, so a new account (sign-up on), from an address of its own sent as
-- X-Forwarded-For (the server trusts 127.0.0.1 as a proxy): the per-number and per-address SMS limits count each flow
-- once, as they would for real people. The server runs with sms_url log:, so each code is in its log (the line
-- "SMS NOT SENT", metadata to=NUMBER and the text ending #CODE); each thread reads the log file as it grows. When a
-- code is not there yet (the outbox worker has not delivered it) the thread sends GET /healthz and looks again; those
-- waits are counted apart from the flow's requests.
-- Environment: BENCH_CLIENT_ID (a public native first-party client), BENCH_REDIRECT_URI, BENCH_SMS_LOG (the server's
-- log file), BENCH_LUA_DIR (this folder). Prints report.lua's BENCH line and a FLOWS line with the completed flows,
-- the waits and each request's p99 (waits included).
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")
local report = done

dofile(os.getenv("BENCH_LUA_DIR") .. "/native_client.lua")

local start_body = flow_start_body("openid phone offline_access")

local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

function init(args)
  step, interaction, code, number, flows, broken, waits, sequence = "start", nil, nil, nil, 0, 0, 0, 0
  sms_log, sms_codes = io.open(os.getenv("BENCH_SMS_LOG"), "r"), {}
  run_tag = os.time() % 1000
end

-- Reads the whole lines the server logged since the last call, keeping each SMS's code by number. The SMS text ends
-- with "\n\n@host #CODE" and the metadata after it is "to=NUMBER", so code and number share the entry's last line. A
-- line still being written is read again next time.
local function read_codes()
  sms_log:seek("cur") -- clears the end-of-file state, so lines written since are read
  while true do
    local line = sms_log:read("*L")
    if not line then return end
    if line:sub(-1) ~= "\n" then
      sms_log:seek("cur", -#line)
      return
    end
    local sent, to = line:match("#(%d+) to=(%+%d+)")
    if sent then sms_codes[to] = sent end
  end
end

local function headers(content_type)
  -- One address per flow: 10.x.y.z from the thread and the flow's sequence number.
  local address = string.format("10.%d.%d.%d", thread_number, math.floor(sequence / 256) % 256, sequence % 256)
  return { ["Content-Type"] = content_type, ["X-Forwarded-For"] = address }
end

function request()
  if step == "phone" then
    return wrk.format("POST", "/flows/interactions/" .. interaction, headers("application/json"),
      string.format('{"node":"phone","action":"submit","values":{"phone":"%s"}}', number))
  elseif step == "code" then
    read_codes()
    code = sms_codes[number]
    if not code then
      waits = waits + 1
      return wrk.format("GET", "/healthz")
    end
    sms_codes[number] = nil
    return wrk.format("POST", "/flows/interactions/" .. interaction, headers("application/json"),
      string.format('{"node":"code","action":"submit","values":{"code":"%s"}}', code))
  elseif step == "token" then
    return wrk.format("POST", "/token", headers("application/x-www-form-urlencoded"), token_body(code))
  end
  sequence = sequence + 1
  -- +1 555 TT RRR SSSSS: a fictional-range number per thread, run and flow (a number used again within 30 s, by the
-- next run, would be refused).
  number = string.format("+1555%02d%03d%05d", thread_number, run_tag, sequence % 100000)
  return wrk.format("POST", "/flows/phone-code", headers("application/x-www-form-urlencoded"), start_body)
end

function response(status, headers, body)
  if step == "start" then
    interaction = started_interaction(status, body)
    if interaction then step = "phone" else broken = broken + 1 end
  elseif step == "phone" then
    if status == 200 and body:match('"id"%s*:%s*"code"') then step = "code" else broken, step = broken + 1, "start" end
  elseif step == "code" then
    if not code then return end -- a wait: look for the code again
    code = success_code(status, body)
    if code then step = "token" else broken, step = broken + 1, "start" end
  else
    if issued_tokens(status, body) then flows = flows + 1 else broken = broken + 1 end
    step = "start"
  end
end

function done(summary, latency, requests)
  report(summary, latency, requests)
  local completed, failed, waited = 0, 0, 0
  for _, thread in ipairs(threads) do
    completed = completed + thread:get("flows")
    failed = failed + thread:get("broken")
    waited = waited + thread:get("waits")
  end
  io.write(string.format(
    'FLOWS {"flows":%d,"failed":%d,"waits":%d,"flows_per_s":%.1f,"request_p99_ms":%.3f}\n',
    completed, failed, waited, completed / (summary.duration / 1e6), latency:percentile(99) / 1000))
end

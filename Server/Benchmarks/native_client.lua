-- What the native-flow wrk scripts share (dofile'd after report.lua): percent-encoding for a form, RFC 7636 Appendix
-- B's PKCE verifier and challenge (the server keeps no memory of them across flows), the client of BENCH_CLIENT_ID and
-- BENCH_REDIRECT_URI, the bodies that start a flow with them asking for `scope` and redeem its code, and what the
-- answers carry.
function escape(text)
  return (text:gsub("[^%w%-%._~]", function(character) return string.format("%%%02X", string.byte(character)) end))
end

verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
client_id, redirect_uri = os.getenv("BENCH_CLIENT_ID"), os.getenv("BENCH_REDIRECT_URI")

function flow_start_body(scope)
  return "client_id=" .. escape(client_id) .. "&redirect_uri=" .. escape(redirect_uri) .. "&scope=" .. escape(scope)
    .. "&state=s&nonce=n&code_challenge=" .. challenge .. "&code_challenge_method=S256"
end

-- The body that redeems `code` at /token.
function token_body(code)
  return "grant_type=authorization_code&code=" .. code .. "&redirect_uri=" .. escape(redirect_uri) .. "&client_id="
    .. escape(client_id) .. "&code_verifier=" .. verifier
end

-- What a flow step's answer carries, nil (or false) when the step failed: the interaction of a started flow, the code
-- of a finished one; and whether a /token answer issued the tokens (an ID token).
function started_interaction(status, body)
  return status == 200 and body:match('"interaction"%s*:%s*"([^"]+)"') or nil
end

function success_code(status, body)
  return status == 200 and body:match('"type"%s*:%s*"success"') and body:match('"code"%s*:%s*"([^"]+)"') or nil
end

function issued_tokens(status, body)
  return status == 200 and body:match('"id_token"') ~= nil
end

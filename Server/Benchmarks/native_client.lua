-- What the native-flow wrk scripts share (dofile'd after report.lua): percent-encoding for a form, RFC 7636 Appendix
-- B's PKCE verifier and challenge (the server keeps no memory of them across flows), the client of BENCH_CLIENT_ID and
-- BENCH_REDIRECT_URI, and the body that starts a flow with them asking for `scope`.
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

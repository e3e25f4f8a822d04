-- wrk script: RFC 8693 token exchange of one external ES256 ID token (the issuer's keys cached after the first) by a
-- public client registered for the grant; each answer is a new grant with a refresh token for the same user.
-- Environment: BENCH_SUBJECT_TOKEN (the ID token), BENCH_CLIENT_ID, BENCH_LUA_DIR.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange"
  .. "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid_token"
  .. "&client_id=" .. os.getenv("BENCH_CLIENT_ID")
  .. "&subject_token=" .. os.getenv("BENCH_SUBJECT_TOKEN")

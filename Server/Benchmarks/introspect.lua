-- wrk script: RFC 7662 introspection of one access token by the confidential client.
-- Environment: BENCH_TOKEN (the access token), BENCH_BASIC (the client's Authorization header), BENCH_LUA_DIR.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

wrk.method = "POST"
wrk.headers["Authorization"] = os.getenv("BENCH_BASIC")
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "token=" .. os.getenv("BENCH_TOKEN") .. "&token_type_hint=access_token"

-- wrk script: GET /v1/me/data (issue 12 §4) with one access token of the `profile` scope.
-- Environment: BENCH_TOKEN (the access token), BENCH_LUA_DIR.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")

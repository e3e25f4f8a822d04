-- wrk script: PATCH /v1/me/data (issue 12 §4, RFC 7396 merge patch, no If-Match) with one access token of the
-- `profile` scope; each request sets the schema's `nickname` field to a new value, so every write changes the profile.
-- Environment: BENCH_TOKEN (the access token), BENCH_LUA_DIR.
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

local headers = {
  ["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN"),
  ["Content-Type"] = "application/merge-patch+json",
}

function init(args)
  written = 0
end

function request()
  written = written + 1
  return wrk.format("PATCH", nil, headers, string.format('{"data":{"nickname":"n%d"}}', written))
end

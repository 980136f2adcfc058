-- GET the stats of one article (ARTICLE given as the script's argument, percent-encoded), with
-- the query string given as a second argument, if any ("from=2026-11-01&to=2026-11-07"), and
-- with "gzip" as a third, accepting gzip as a browser does.
local path
local headers = {}
function init(args)
  path = "/v1/articles/" .. args[1] .. "/stats"
  if args[2] and args[2] ~= "" then path = path .. "?" .. args[2] end
  if args[3] == "gzip" then headers["Accept-Encoding"] = "gzip, deflate, br" end
end
function request()
  return wrk.format("GET", path, headers)
end

-- GET the stats of one article (ARTICLE given as the script's argument, percent-encoded).
local path
function init(args)
  path = "/v1/articles/" .. args[1] .. "/stats"
end
function request()
  return wrk.format("GET", path)
end

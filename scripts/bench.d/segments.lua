-- GET the segments of one article (ARTICLE, percent-encoded, the script's argument) by the
-- second argument ("device" or "source").
local path
function init(args)
  path = "/v1/articles/" .. args[1] .. "/segments?by=" .. args[2]
end
function request()
  return wrk.format("GET", path)
end

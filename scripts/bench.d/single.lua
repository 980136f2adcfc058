-- One event per request: readers spread over 200,000 ids, articles over 100, geometry varied.
-- Requests are built once in init() and cycled, so wrk spends its time sending, not in Lua.
local requests = {}
local count = 4096
local index = 0

local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  math.randomseed(42 + (tonumber(wrk.thread:get("id")) or 0))
  for i = 1, count do
    local body = string.format(
      '{"article":"/blog/article-%d","reader":"reader-%d","contentOffset":{"x":0,"y":%d},' ..
      '"contentSize":{"width":390,"height":%d},"containerSize":{"width":390,"height":844},' ..
      '"contentInsets":{"top":47,"bottom":34},"engagedMs":%d}',
      math.random(0, 99), math.random(0, 199999), math.random(0, 4000),
      math.random(3000, 9000), math.random(0, 30000))
    requests[i] = wrk.format("POST", "/v1/events", {["Content-Type"] = "application/json"}, body)
  end
end

function request()
  index = index % count + 1
  return requests[index]
end

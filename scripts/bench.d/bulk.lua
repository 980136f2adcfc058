-- 1000 events per request, as a JSON array or (BULK_FORMAT=ndjson) one event a line.
local requests = {}
local count = 32
local index = 0
local per = 1000

local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  local ndjson = args[1] == "ndjson"
  math.randomseed(7 + (tonumber(wrk.thread:get("id")) or 0))
  for i = 1, count do
    local events = {}
    for j = 1, per do
      events[j] = string.format(
        '{"article":"/blog/article-%d","reader":"reader-%d","contentOffset":{"x":0,"y":%d},' ..
        '"contentSize":{"width":390,"height":%d},"containerSize":{"width":390,"height":844},"engagedMs":%d}',
        math.random(0, 99), math.random(0, 199999), math.random(0, 4000),
        math.random(3000, 9000), math.random(0, 30000))
    end
    local body, type
    if ndjson then
      body = table.concat(events, "\n") .. "\n"
      type = "application/x-ndjson"
    else
      body = "[" .. table.concat(events, ",") .. "]"
      type = "application/json"
    end
    requests[i] = wrk.format("POST", "/v1/events", {["Content-Type"] = type}, body)
  end
end

function request()
  index = index % count + 1
  return requests[index]
end

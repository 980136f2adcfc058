-- 1000 events a request as a JSON array, each with an id no earlier request used: the events of
-- bulk.lua's shape plus "id". The body is made once; each request only puts its number in the
-- ids (one string.gsub), so wrk spends little time on it. The ids begin with the second the run
-- started, so that a later run against the same service sends new ids too, not repeats.
local template
local counter = 0
local threads = 0

function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  local thread = tonumber(wrk.thread:get("id")) or 0
  math.randomseed(11 + thread)
  local events = {}
  for j = 1, 1000 do
    events[j] = string.format(
      '{"id":"%d-%d-@-%d","article":"/blog/article-%d","reader":"reader-%d","contentOffset":{"x":0,"y":%d},' ..
      '"contentSize":{"width":390,"height":%d},"containerSize":{"width":390,"height":844},"engagedMs":%d}',
      os.time(), thread, j, math.random(0, 99), math.random(0, 199999), math.random(0, 4000),
      math.random(3000, 9000), math.random(0, 30000))
  end
  template = "[" .. table.concat(events, ",") .. "]"
end

function request()
  counter = counter + 1
  local body = string.gsub(template, "@", tostring(counter))
  return wrk.format("POST", "/v1/events", {["Content-Type"] = "application/json"}, body)
end

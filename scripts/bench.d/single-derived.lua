-- single.lua without "reader": the service derives one from the address, User-Agent and Origin
-- (docs/privacy.md). The agent varies over 200,000 values, as single.lua's readers do, so that
-- the store sees as many readers; a browser-sized agent and an Origin, as a beacon sends them.
-- With the argument "named" every event names its reader as single.lua's do, with the same
-- header fields: the difference between the two is the derivation alone.
-- Requests are built once in init() and cycled, so wrk spends its time sending, not in Lua.
--   wrk -t2 -c64 -d10s -s scripts/bench.d/single-derived.lua http://127.0.0.1:PORT [-- named]
local requests = {}
local count = 4096
local index = 0

local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  local named = args[1] == "named"
  math.randomseed(42 + (tonumber(wrk.thread:get("id")) or 0))
  for i = 1, count do
    local agent = math.random(0, 199999)
    local reader = named and string.format('"reader":"reader-%d",', agent) or ""
    local body = string.format(
      '{"article":"/blog/article-%d",' .. reader .. '"contentOffset":{"x":0,"y":%d},' ..
      '"contentSize":{"width":390,"height":%d},"containerSize":{"width":390,"height":844},' ..
      '"contentInsets":{"top":47,"bottom":34},"engagedMs":%d}',
      math.random(0, 99), math.random(0, 4000), math.random(3000, 9000), math.random(0, 30000))
    local headers = {
      ["Content-Type"] = "application/json",
      ["User-Agent"] = string.format("Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/133.0", agent),
      ["Origin"] = "https://news.example",
    }
    requests[i] = wrk.format("POST", "/v1/events", headers, body)
  end
end

function request()
  index = index % count + 1
  return requests[index]
end

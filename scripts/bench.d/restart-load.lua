-- Events FROM..TO, 1000 a request as NDJSON, over THREADS threads of one connection each (the
-- script's arguments FROM TO THREADS MARK), thread t taking batches t, t + THREADS, ...; once
-- its batches are answered a thread stops and makes the file MARK.t (wrk itself runs until its
-- duration ends or SIGINT). Every tenth event goes to the small articles (3 readers each), the
-- others are each a new reader of one big article: each event is a pair of its own. Prints
-- "failed N", the answers that were not 202.
local per, small_every, article_readers = 1000, 10, 3
local geometry = '"contentOffset":{"x":0,"y":%d},"contentSize":{"width":390,"height":5000},' ..
  '"containerSize":{"width":390,"height":844}'
local big = '{"article":"/bench/restart-big","reader":"reader-%d",' .. geometry .. ',"engagedMs":%d}'
local small = '{"article":"/bench/restart-%d","reader":"r-%d",' .. geometry .. '}'

local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

local from, to, next_start, step, failed, mark
function init(args)
  from, to = tonumber(args[1]), tonumber(args[2])
  step = per * tonumber(args[3])
  mark = args[4] .. "." .. wrk.thread:get("id")
  next_start = from + per * tonumber(wrk.thread:get("id"))
  failed = 0
end

local function body(start, stop)
  local lines = {}
  for i = start, stop - 1 do
    if i % small_every == 0 then
      local n = math.floor(i / small_every)
      lines[#lines + 1] = string.format(small, math.floor(n / article_readers), n % article_readers, i % 4200)
    else
      lines[#lines + 1] = string.format(big, i, (i * 37) % 4200, (i * 11) % 60000)
    end
  end
  return table.concat(lines, "\n") .. "\n"
end

-- wrk may call request() more than once for one request: the batch moves on at its answer.
function request()
  if next_start >= to then return wrk.format("GET", "/healthz") end
  return wrk.format("POST", "/v1/events", {["Content-Type"] = "application/x-ndjson"},
    body(next_start, math.min(next_start + per, to)))
end

function response(status, headers, body)
  if status ~= 202 and status ~= 200 then failed = failed + 1 end
  wrk.thread:set("failed", failed)
  next_start = next_start + step
  if next_start >= to then
    io.open(mark, "w"):close()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (tonumber(thread:get("failed")) or 0) end
  io.write(string.format("failed %d\n", total))
end

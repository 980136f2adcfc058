-- GET a page of the listing; the script's argument is the query string ("sort=readers&limit=50").
-- With a second argument "churn", every other request posts one event to one of ARTICLES (the
-- third argument) articles first, so that each page follows a change somewhere.
local query, churn, articles
local counter = 0
function init(args)
  query = args[1]
  churn = args[2] == "churn"
  articles = tonumber(args[3] or "1000")
end
function request()
  counter = counter + 1
  if churn and counter % 2 == 0 then
    local body = string.format(
      '{"article":"/bench/article-%d","reader":"churn-%d","contentOffset":{"x":0,"y":%d},' ..
      '"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844}}',
      (counter * 7919) % articles, counter % 50, (counter * 37) % 4200)
    return wrk.format("POST", "/v1/events", {["Content-Type"] = "application/json"}, body)
  end
  return wrk.format("GET", "/v1/articles?" .. query)
end

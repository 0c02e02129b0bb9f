-- The benign set: real analytical queries on the Chinook database that the
-- guard must let through, with the same answer as a bare connection gives.
-- False positives (a benign query refused) are bugs, just like false
-- negatives. Each block is:
--
--   ### <category>: <short description> [| ordered]
--   <SQL, any number of lines>
--
-- "| ordered" means the ORDER BY fully determines the order of the rows
-- (ties are broken by a unique key), so the rows are compared in order;
-- otherwise they are compared as a multiset. Lines before the first header
-- are ignored.

### join: tracks with their album and artist (inner, three-way) | ordered
SELECT t.TrackId, t.Name AS Track, al.Title AS Album, ar.Name AS Artist
FROM Track t
JOIN Album al ON al.AlbumId = t.AlbumId
JOIN Artist ar ON ar.ArtistId = al.ArtistId
ORDER BY t.TrackId
LIMIT 50

### join: artists that have no album (left join, IS NULL)
SELECT ar.ArtistId, ar.Name
FROM Artist ar
LEFT JOIN Album al ON al.ArtistId = ar.ArtistId
WHERE al.AlbumId IS NULL

### join: every employee with their manager (self-join on ReportsTo) | ordered
SELECT e.EmployeeId,
       e.FirstName || ' ' || e.LastName AS Employee,
       e.Title,
       m.FirstName || ' ' || m.LastName AS Manager
FROM Employee e
LEFT JOIN Employee m ON m.EmployeeId = e.ReportsTo
ORDER BY e.EmployeeId

### join: sales per support rep (employee → customer → invoice) | ordered
SELECT e.EmployeeId, e.FirstName, e.LastName,
       count(DISTINCT c.CustomerId) AS customers,
       count(i.InvoiceId) AS invoices,
       round(sum(i.Total), 2) AS revenue
FROM Employee e
JOIN Customer c ON c.SupportRepId = e.EmployeeId
JOIN Invoice i ON i.CustomerId = c.CustomerId
GROUP BY e.EmployeeId
ORDER BY revenue DESC, e.EmployeeId

### join: revenue by genre over five tables | ordered
SELECT g.GenreId, g.Name AS Genre,
       sum(il.Quantity) AS units,
       round(sum(il.UnitPrice * il.Quantity), 2) AS revenue
FROM InvoiceLine il
JOIN Invoice i ON i.InvoiceId = il.InvoiceId
JOIN Track t ON t.TrackId = il.TrackId
JOIN Genre g ON g.GenreId = t.GenreId
JOIN Customer c ON c.CustomerId = i.CustomerId
WHERE c.Country <> 'Nowhere'
GROUP BY g.GenreId
ORDER BY revenue DESC, g.GenreId

### join: playlists and their number of tracks (LEFT JOIN … USING) | ordered
SELECT p.PlaylistId, p.Name, count(pt.TrackId) AS tracks
FROM Playlist p
LEFT JOIN PlaylistTrack pt USING (PlaylistId)
GROUP BY p.PlaylistId
ORDER BY p.PlaylistId

### join: track and genre names side by side (duplicate output column Name) | ordered
SELECT t.TrackId, t.Name, g.Name
FROM Track t
JOIN Genre g ON g.GenreId = t.GenreId
WHERE t.TrackId <= 25
ORDER BY t.TrackId

### join: media type × genre matrix (cross join then left join)
SELECT m.Name AS MediaType, g.Name AS Genre, count(t.TrackId) AS tracks
FROM MediaType m
CROSS JOIN Genre g
LEFT JOIN Track t ON t.MediaTypeId = m.MediaTypeId AND t.GenreId = g.GenreId
GROUP BY m.MediaTypeId, g.GenreId
HAVING count(t.TrackId) > 0

### join: albums of artists whose name starts with A (natural join)
SELECT Title, Name
FROM Album NATURAL JOIN Artist
WHERE Name LIKE 'A%'

### join: customers in the same country as their support rep (join on two conditions)
SELECT c.CustomerId, c.FirstName, c.LastName, c.Country, e.LastName AS RepLastName
FROM Customer c
JOIN Employee e ON e.EmployeeId = c.SupportRepId AND e.Country = c.Country

### join: genres and media types matched by id (FULL OUTER JOIN)
SELECT g.GenreId, g.Name AS Genre, m.MediaTypeId, m.Name AS MediaType
FROM Genre g
FULL OUTER JOIN MediaType m ON m.MediaTypeId = g.GenreId

### join: every genre with its track count (RIGHT JOIN) | ordered
SELECT g.GenreId, g.Name, count(t.TrackId) AS tracks
FROM Track t
RIGHT JOIN Genre g ON g.GenreId = t.GenreId
GROUP BY g.GenreId
ORDER BY g.GenreId

### join: all columns of two small tables (SELECT *) | ordered
SELECT *
FROM Album a
JOIN Artist ar ON ar.ArtistId = a.ArtistId
WHERE a.AlbumId <= 30
ORDER BY a.AlbumId

### group: countries with at least five customers (HAVING) | ordered
SELECT Country, count(*) AS customers
FROM Customer
GROUP BY Country
HAVING count(*) >= 5
ORDER BY customers DESC, Country

### group: average track length per genre in minutes | ordered
SELECT g.Name AS Genre,
       count(*) AS tracks,
       round(avg(t.Milliseconds) / 60000.0, 2) AS avg_minutes,
       max(t.Milliseconds) AS longest_ms
FROM Track t
JOIN Genre g ON g.GenreId = t.GenreId
GROUP BY g.Name
ORDER BY avg_minutes DESC, g.Name

### group: albums with more than 20 tracks | ordered
SELECT al.AlbumId, al.Title, count(*) AS tracks, sum(t.Milliseconds) / 1000 AS seconds
FROM Album al
JOIN Track t ON t.AlbumId = al.AlbumId
GROUP BY al.AlbumId, al.Title
HAVING count(*) > 20
ORDER BY tracks DESC, al.AlbumId

### group: invoice totals by billing country and city
SELECT BillingCountry, BillingCity, count(*) AS invoices,
       round(sum(Total), 2) AS total, round(avg(Total), 2) AS average,
       min(Total) AS smallest, max(Total) AS largest
FROM Invoice
GROUP BY BillingCountry, BillingCity
HAVING sum(Total) > 30

### group: genres of each artist as an ordered list (group_concat ORDER BY) | ordered
SELECT ar.ArtistId, ar.Name,
       count(DISTINCT g.GenreId) AS n_genres,
       group_concat(DISTINCT g.Name ORDER BY g.Name) AS genres
FROM Artist ar
JOIN Album al ON al.ArtistId = ar.ArtistId
JOIN Track t ON t.AlbumId = al.AlbumId
JOIN Genre g ON g.GenreId = t.GenreId
GROUP BY ar.ArtistId
HAVING count(DISTINCT g.GenreId) > 1
ORDER BY ar.ArtistId

### cte: ten best customers by spend | ordered
WITH spend AS (
  SELECT CustomerId, sum(Total) AS total, count(*) AS invoices
  FROM Invoice
  GROUP BY CustomerId
)
SELECT c.CustomerId, c.FirstName, c.LastName, c.Country,
       round(s.total, 2) AS total, s.invoices
FROM spend s
JOIN Customer c USING (CustomerId)
ORDER BY s.total DESC, c.CustomerId
LIMIT 10

### cte: several CTEs: best-selling genre per country | ordered
WITH country_genre AS (
  SELECT i.BillingCountry AS Country, t.GenreId, sum(il.Quantity) AS units
  FROM Invoice i
  JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
  JOIN Track t ON t.TrackId = il.TrackId
  GROUP BY i.BillingCountry, t.GenreId
),
best AS (
  SELECT Country, max(units) AS units
  FROM country_genre
  GROUP BY Country
),
named AS (
  SELECT cg.Country, g.Name AS Genre, cg.units
  FROM country_genre cg
  JOIN best b ON b.Country = cg.Country AND b.units = cg.units
  JOIN Genre g ON g.GenreId = cg.GenreId
)
SELECT Country, Genre, units
FROM named
ORDER BY Country, Genre

### cte: a CTE used twice: customers who spend above the average
WITH spend AS (
  SELECT CustomerId, sum(Total) AS total
  FROM Invoice
  GROUP BY CustomerId
)
SELECT c.FirstName, c.LastName, round(s.total, 2) AS total,
       round(s.total - (SELECT avg(total) FROM spend), 2) AS above_average
FROM spend s
JOIN Customer c ON c.CustomerId = s.CustomerId
WHERE s.total > (SELECT avg(total) FROM spend)

### cte: yearly revenue compared with the previous year (CTE joined to itself) | ordered
WITH yearly AS (
  SELECT strftime('%Y', InvoiceDate) AS year, sum(Total) AS revenue
  FROM Invoice
  GROUP BY year
)
SELECT cur.year, round(cur.revenue, 2) AS revenue,
       round(cur.revenue - prev.revenue, 2) AS change
FROM yearly cur
LEFT JOIN yearly prev ON CAST(prev.year AS INTEGER) = CAST(cur.year AS INTEGER) - 1
ORDER BY cur.year

### cte: a CTE named like a table shadows it | ordered
WITH Invoice AS (
  SELECT * FROM main.Invoice WHERE BillingCountry = 'Germany'
)
SELECT InvoiceId, BillingCity, Total
FROM Invoice
ORDER BY InvoiceId

### cte: MATERIALIZED and NOT MATERIALIZED hints | ordered
WITH long_tracks AS MATERIALIZED (
  SELECT TrackId, AlbumId, Milliseconds FROM Track WHERE Milliseconds > 600000
),
albums AS NOT MATERIALIZED (
  SELECT AlbumId, Title FROM Album
)
SELECT a.Title, count(*) AS long_tracks
FROM long_tracks lt
JOIN albums a ON a.AlbumId = lt.AlbumId
GROUP BY a.AlbumId
ORDER BY long_tracks DESC, a.AlbumId

### recursive: employee hierarchy with depth and path | ordered
WITH RECURSIVE chain(EmployeeId, Name, depth, path) AS (
  SELECT EmployeeId, FirstName || ' ' || LastName, 0, LastName
  FROM Employee
  WHERE ReportsTo IS NULL
  UNION ALL
  SELECT e.EmployeeId, e.FirstName || ' ' || e.LastName, c.depth + 1, c.path || ' > ' || e.LastName
  FROM Employee e
  JOIN chain c ON e.ReportsTo = c.EmployeeId
  WHERE c.depth < 10
)
SELECT EmployeeId, Name, depth, path
FROM chain
ORDER BY path, EmployeeId

### recursive: calendar of months 2009–2013 with revenue, gaps filled | ordered
WITH RECURSIVE months(m) AS (
  SELECT date('2009-01-01')
  UNION ALL
  SELECT date(m, '+1 month') FROM months WHERE m < '2013-12-01'
)
SELECT strftime('%Y-%m', m) AS month,
       count(i.InvoiceId) AS invoices,
       coalesce(round(sum(i.Total), 2), 0) AS revenue
FROM months
LEFT JOIN Invoice i ON strftime('%Y-%m', i.InvoiceDate) = strftime('%Y-%m', months.m)
GROUP BY months.m
ORDER BY months.m

### recursive: a counter to 100
WITH RECURSIVE cnt(x) AS (
  SELECT 1
  UNION ALL
  SELECT x + 1 FROM cnt WHERE x < 100
)
SELECT count(*) AS n, sum(x) AS total, min(x) AS first, max(x) AS last
FROM cnt

### recursive: track-length histogram over generated one-minute buckets | ordered
WITH RECURSIVE bucket(minute) AS (
  SELECT 0
  UNION ALL
  SELECT minute + 1 FROM bucket LIMIT 15
)
SELECT b.minute, count(t.TrackId) AS tracks
FROM bucket b
LEFT JOIN Track t ON t.Milliseconds / 60000 = b.minute
GROUP BY b.minute
ORDER BY b.minute

### recursive: chain of managers above one employee | ordered
WITH RECURSIVE up(EmployeeId, ReportsTo, LastName, level) AS (
  SELECT EmployeeId, ReportsTo, LastName, 0 FROM Employee WHERE EmployeeId = 8
  UNION ALL
  SELECT e.EmployeeId, e.ReportsTo, e.LastName, up.level + 1
  FROM Employee e JOIN up ON e.EmployeeId = up.ReportsTo
  WHERE up.level < 20
)
SELECT level, EmployeeId, LastName FROM up ORDER BY level

### window: three longest tracks of each genre (row_number, PARTITION BY) | ordered
WITH ranked AS (
  SELECT g.Name AS Genre, t.TrackId, t.Name AS Track, t.Milliseconds,
         row_number() OVER (PARTITION BY t.GenreId ORDER BY t.Milliseconds DESC, t.TrackId) AS rn
  FROM Track t
  JOIN Genre g ON g.GenreId = t.GenreId
)
SELECT Genre, rn, TrackId, Track, Milliseconds
FROM ranked
WHERE rn <= 3
ORDER BY Genre, rn

### window: rank and dense_rank of customers by number of invoices | ordered
SELECT CustomerId, count(*) AS invoices,
       rank() OVER (ORDER BY count(*) DESC) AS rnk,
       dense_rank() OVER (ORDER BY count(*) DESC) AS dense
FROM Invoice
GROUP BY CustomerId
ORDER BY rnk, CustomerId

### window: month-over-month revenue with lag and lead | ordered
WITH monthly AS (
  SELECT strftime('%Y-%m', InvoiceDate) AS month, round(sum(Total), 2) AS revenue
  FROM Invoice
  GROUP BY month
)
SELECT month, revenue,
       lag(revenue) OVER (ORDER BY month) AS previous,
       lead(revenue, 1, 0) OVER (ORDER BY month) AS next,
       round(revenue - lag(revenue) OVER (ORDER BY month), 2) AS change
FROM monthly
ORDER BY month

### window: running total of revenue within each year | ordered
SELECT InvoiceId, InvoiceDate, Total,
       round(sum(Total) OVER (PARTITION BY strftime('%Y', InvoiceDate)
                              ORDER BY InvoiceDate, InvoiceId
                              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), 2) AS running
FROM Invoice
ORDER BY InvoiceDate, InvoiceId

### window: customers split into spend quartiles (ntile)
WITH spend AS (
  SELECT CustomerId, sum(Total) AS total FROM Invoice GROUP BY CustomerId
)
SELECT quartile, count(*) AS customers, round(min(total), 2) AS low, round(max(total), 2) AS high
FROM (SELECT CustomerId, total, ntile(4) OVER (ORDER BY total, CustomerId) AS quartile FROM spend)
GROUP BY quartile

### window: three-invoice moving average per customer, named window | ordered
SELECT CustomerId, InvoiceId, InvoiceDate, Total,
       round(avg(Total) OVER w, 2) AS moving_avg,
       first_value(InvoiceDate) OVER w AS window_start,
       count(*) OVER (PARTITION BY CustomerId) AS invoices
FROM Invoice
WHERE CustomerId <= 5
WINDOW w AS (PARTITION BY CustomerId ORDER BY InvoiceDate, InvoiceId ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
ORDER BY CustomerId, InvoiceDate, InvoiceId

### window: GROUPS frame with EXCLUDE, per customer | ordered
SELECT CustomerId, InvoiceId, Total,
       round(sum(Total) OVER (PARTITION BY CustomerId ORDER BY InvoiceId
                              GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW), 2) AS neighbours,
       nth_value(Total, 2) OVER (PARTITION BY CustomerId ORDER BY InvoiceId
                                 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second_total
FROM Invoice
WHERE CustomerId BETWEEN 10 AND 12
ORDER BY CustomerId, InvoiceId

### window: share of genre in total, percent_rank and cume_dist | ordered
SELECT g.Name,
       count(*) AS tracks,
       round(100.0 * count(*) / sum(count(*)) OVER (), 2) AS pct,
       round(percent_rank() OVER (ORDER BY count(*)), 4) AS prank,
       round(cume_dist() OVER (ORDER BY count(*)), 4) AS cdist,
       last_value(g.Name) OVER (ORDER BY count(*), g.GenreId
                                ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS most_common
FROM Track t
JOIN Genre g ON g.GenreId = t.GenreId
GROUP BY g.GenreId
ORDER BY tracks DESC, g.GenreId

### json: one JSON document per customer (json_object) | ordered
SELECT CustomerId,
       json_object('name', FirstName || ' ' || LastName,
                   'country', Country,
                   'company', Company,
                   'rep', SupportRepId) AS doc
FROM Customer
ORDER BY CustomerId
LIMIT 10

### json: albums of each artist as a JSON array (json_group_array) | ordered
SELECT ar.ArtistId, ar.Name,
       json_group_array(al.Title ORDER BY al.Title) AS albums,
       json_array_length(json_group_array(al.AlbumId)) AS n
FROM Artist ar
JOIN Album al ON al.ArtistId = ar.ArtistId
GROUP BY ar.ArtistId
HAVING count(*) >= 3
ORDER BY ar.ArtistId

### json: json_extract from JSON built in a CTE
WITH docs AS (
  SELECT json_object('id', InvoiceId,
                     'total', Total,
                     'where', json_object('city', BillingCity, 'country', BillingCountry)) AS doc
  FROM Invoice
)
SELECT json_extract(doc, '$.where.country') AS country,
       count(*) AS invoices,
       round(sum(json_extract(doc, '$.total')), 2) AS revenue
FROM docs
GROUP BY country

### json: the ->> and -> operators | ordered
WITH docs AS (
  SELECT EmployeeId,
         json_object('name', json_object('first', FirstName, 'last', LastName),
                     'title', Title,
                     'phones', json_array(Phone, Fax)) AS doc
  FROM Employee
)
SELECT EmployeeId,
       doc ->> '$.name.last' AS last_name,
       doc -> '$.name' AS name_json,
       doc ->> 'title' AS title,
       doc ->> '$.phones[1]' AS fax,
       json_type(doc, '$.phones') AS phones_type
FROM docs
ORDER BY EmployeeId

### json: json_each over a literal array of genre names
SELECT j.value AS genre, j.key AS position, count(t.TrackId) AS tracks
FROM json_each('["Rock", "Jazz", "Blues", "Polka"]') AS j
LEFT JOIN Genre g ON g.Name = j.value
LEFT JOIN Track t ON t.GenreId = g.GenreId
GROUP BY j.key, j.value

### json: invoice counts per country as one JSON object (json_group_object)
SELECT json_group_object(BillingCountry, n ORDER BY BillingCountry) AS per_country,
       json_valid(json_group_object(BillingCountry, n)) AS valid
FROM (SELECT BillingCountry, count(*) AS n FROM Invoice GROUP BY BillingCountry)

### json: json_each over JSON built from the data, with json_tree
WITH doc AS (
  SELECT json_group_array(json_object('genre', Name, 'id', GenreId)) AS j
  FROM Genre
  WHERE GenreId <= 5
)
SELECT e.value ->> 'genre' AS genre, e.value ->> 'id' AS id,
       (SELECT count(*) FROM doc, json_tree(doc.j)) AS tree_nodes
FROM doc, json_each(doc.j) AS e

### date: invoices and revenue per year | ordered
SELECT strftime('%Y', InvoiceDate) AS year,
       count(*) AS invoices,
       round(sum(Total), 2) AS revenue
FROM Invoice
GROUP BY year
ORDER BY year

### date: monthly aggregates for 2010 | ordered
SELECT CAST(strftime('%m', InvoiceDate) AS INTEGER) AS month,
       count(*) AS invoices,
       round(sum(Total), 2) AS revenue,
       min(date(InvoiceDate)) AS first_day,
       max(date(InvoiceDate)) AS last_day
FROM Invoice
WHERE InvoiceDate >= '2010-01-01' AND InvoiceDate < '2011-01-01'
GROUP BY month
ORDER BY month

### date: due dates and month boundaries (date arithmetic) | ordered
SELECT InvoiceId, InvoiceDate,
       date(InvoiceDate, '+30 days') AS due,
       date(InvoiceDate, 'start of month') AS month_start,
       date(InvoiceDate, 'start of month', '+1 month', '-1 day') AS month_end,
       date(InvoiceDate, 'weekday 0') AS next_sunday,
       datetime(InvoiceDate, '+36 hours') AS plus_36h
FROM Invoice
WHERE InvoiceId BETWEEN 100 AND 120
ORDER BY InvoiceId

### date: age at hire and years of service (julianday differences) | ordered
SELECT EmployeeId, FirstName, LastName, BirthDate, HireDate,
       CAST((julianday(HireDate) - julianday(BirthDate)) / 365.25 AS INTEGER) AS age_at_hire,
       round((julianday('2014-01-01') - julianday(HireDate)) / 365.25, 1) AS years_by_2014
FROM Employee
ORDER BY HireDate, EmployeeId

### date: days between each customer's first and last purchase
SELECT CustomerId,
       min(InvoiceDate) AS first_purchase,
       max(InvoiceDate) AS last_purchase,
       CAST(julianday(max(InvoiceDate)) - julianday(min(InvoiceDate)) AS INTEGER) AS days_active
FROM Invoice
GROUP BY CustomerId
HAVING days_active > 1250

### date: invoices by day of the week | ordered
SELECT strftime('%w', InvoiceDate) AS dow,
       CASE strftime('%w', InvoiceDate)
         WHEN '0' THEN 'Sunday' WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday'
         WHEN '3' THEN 'Wednesday' WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday'
         ELSE 'Saturday' END AS day_name,
       count(*) AS invoices
FROM Invoice
GROUP BY dow
ORDER BY dow

### date: time between invoices in whole units (timediff, strftime %j and %W) | ordered
SELECT InvoiceId, InvoiceDate,
       timediff(InvoiceDate, '2009-01-01 00:00:00') AS since_start,
       strftime('%j', InvoiceDate) AS day_of_year,
       strftime('%W', InvoiceDate) AS week
FROM Invoice
WHERE InvoiceId IN (1, 50, 200, 412)
ORDER BY InvoiceId

### date: quarterly revenue with unixepoch and the date a quarter starts | ordered
SELECT strftime('%Y', InvoiceDate) AS year,
       (CAST(strftime('%m', InvoiceDate) AS INTEGER) + 2) / 3 AS quarter,
       min(unixepoch(InvoiceDate)) AS first_epoch,
       min(strftime('%Y-%m-%dT%H:%M:%S', InvoiceDate)) AS first_iso,
       round(sum(Total), 2) AS revenue
FROM Invoice
GROUP BY year, quarter
ORDER BY year, quarter

### compound: every city where a customer or an employee lives (UNION)
SELECT City, Country FROM Customer
UNION
SELECT City, Country FROM Employee

### compound: people of the company and its customers, labelled (UNION ALL) | ordered
SELECT 'employee' AS kind, EmployeeId AS id, FirstName || ' ' || LastName AS name, Email FROM Employee
UNION ALL
SELECT 'customer', CustomerId, FirstName || ' ' || LastName, Email FROM Customer
ORDER BY kind, id

### compound: countries that have both customers and employees (INTERSECT)
SELECT Country FROM Customer
INTERSECT
SELECT Country FROM Employee

### compound: countries with customers but no employee (EXCEPT) | ordered
SELECT Country FROM Customer
EXCEPT
SELECT Country FROM Employee
ORDER BY Country

### compound: totals row appended to a breakdown (UNION ALL of aggregates)
SELECT MediaTypeId AS media, count(*) AS tracks FROM Track GROUP BY MediaTypeId
UNION ALL
SELECT 'all', count(*) FROM Track

### case: tracks by price and length band
SELECT CASE WHEN UnitPrice < 1 THEN 'cheap' WHEN UnitPrice < 1.5 THEN 'standard' ELSE 'premium' END AS price_band,
       CASE
         WHEN Milliseconds < 180000 THEN 'short'
         WHEN Milliseconds < 360000 THEN 'medium'
         ELSE 'long'
       END AS length_band,
       count(*) AS tracks
FROM Track
GROUP BY price_band, length_band

### case: revenue per country pivoted by year (CASE inside sum) | ordered
SELECT BillingCountry,
       round(sum(CASE WHEN strftime('%Y', InvoiceDate) = '2009' THEN Total ELSE 0 END), 2) AS y2009,
       round(sum(CASE WHEN strftime('%Y', InvoiceDate) = '2010' THEN Total ELSE 0 END), 2) AS y2010,
       round(sum(CASE WHEN strftime('%Y', InvoiceDate) = '2011' THEN Total ELSE 0 END), 2) AS y2011,
       round(sum(CASE WHEN strftime('%Y', InvoiceDate) = '2012' THEN Total ELSE 0 END), 2) AS y2012,
       round(sum(CASE WHEN strftime('%Y', InvoiceDate) = '2013' THEN Total ELSE 0 END), 2) AS y2013
FROM Invoice
GROUP BY BillingCountry
ORDER BY BillingCountry

### case: iif and simple CASE on customer fields | ordered
SELECT CustomerId,
       iif(Company IS NULL, 'private', 'business') AS kind,
       CASE Country WHEN 'USA' THEN 'domestic' WHEN 'Canada' THEN 'domestic' ELSE 'abroad' END AS market,
       iif(Fax IS NOT NULL, 1, 0) AS has_fax
FROM Customer
ORDER BY CustomerId

### pattern: track names containing "love", any case (LIKE)
SELECT TrackId, Name, Composer
FROM Track
WHERE Name LIKE '%love%'

### pattern: case-sensitive GLOB on names starting with a capital and a digit
SELECT TrackId, Name
FROM Track
WHERE Name GLOB '[A-Z]*[0-9]*' AND Name NOT GLOB '*[a-z]'

### pattern: LIKE with ESCAPE, NOT LIKE and instr; literals holding ; and -- | ordered
SELECT TrackId, Name, instr(Name, '(') AS paren_at, 'a;b -- not a comment' AS note
FROM Track
WHERE Name LIKE '%\_%' ESCAPE '\' OR (Name LIKE '%(%' AND Name NOT LIKE '%Live%' AND TrackId < 200)
ORDER BY TrackId

### pattern: customers with a gmail or yahoo address
SELECT CustomerId, Email,
       substr(Email, instr(Email, '@') + 1) AS domain
FROM Customer
WHERE Email LIKE '%@gmail.com' OR Email GLOB '*@yahoo.*'

### subquery: tracks of the Rock genre bought in Brazil (IN) | ordered
SELECT TrackId, Name
FROM Track
WHERE GenreId IN (SELECT GenreId FROM Genre WHERE Name = 'Rock')
  AND TrackId IN (SELECT il.TrackId
                  FROM InvoiceLine il JOIN Invoice i ON i.InvoiceId = il.InvoiceId
                  WHERE i.BillingCountry = 'Brazil')
ORDER BY TrackId

### subquery: customers who bought jazz (EXISTS) | ordered
SELECT c.CustomerId, c.FirstName, c.LastName
FROM Customer c
WHERE EXISTS (
  SELECT 1
  FROM Invoice i
  JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
  JOIN Track t ON t.TrackId = il.TrackId
  JOIN Genre g ON g.GenreId = t.GenreId
  WHERE i.CustomerId = c.CustomerId AND g.Name = 'Jazz'
)
ORDER BY c.CustomerId

### subquery: tracks never sold (NOT EXISTS), counted per media type
SELECT m.Name AS MediaType, count(*) AS unsold
FROM Track t
JOIN MediaType m ON m.MediaTypeId = t.MediaTypeId
WHERE NOT EXISTS (SELECT 1 FROM InvoiceLine il WHERE il.TrackId = t.TrackId)
GROUP BY m.Name

### subquery: scalar subqueries in the select list | ordered
SELECT e.EmployeeId, e.LastName,
       (SELECT count(*) FROM Customer c WHERE c.SupportRepId = e.EmployeeId) AS customers,
       (SELECT count(*) FROM Employee x WHERE x.ReportsTo = e.EmployeeId) AS reports,
       (SELECT max(HireDate) FROM Employee) AS latest_hire
FROM Employee e
ORDER BY e.EmployeeId

### subquery: invoices above their country's average (correlated)
SELECT i.InvoiceId, i.BillingCountry, i.Total
FROM Invoice i
WHERE i.Total > (SELECT avg(x.Total) FROM Invoice x WHERE x.BillingCountry = i.BillingCountry)
  AND i.BillingCountry IN ('USA', 'Canada', 'France')

### subquery: average album length from a derived table | ordered
SELECT ar.Name, count(*) AS albums, round(avg(a.minutes), 1) AS avg_album_minutes
FROM (
  SELECT al.AlbumId, al.ArtistId, sum(t.Milliseconds) / 60000.0 AS minutes
  FROM Album al JOIN Track t ON t.AlbumId = al.AlbumId
  GROUP BY al.AlbumId
) AS a
JOIN Artist ar ON ar.ArtistId = a.ArtistId
GROUP BY ar.ArtistId
HAVING count(*) >= 4
ORDER BY albums DESC, ar.ArtistId

### subquery: row values: invoice lines matching (invoice, track) pairs | ordered
SELECT InvoiceLineId, InvoiceId, TrackId
FROM InvoiceLine
WHERE (InvoiceId, TrackId) IN (SELECT 1, 2 UNION ALL SELECT 2, 6 UNION ALL VALUES (2, 8))
ORDER BY InvoiceLineId

### distinct: distinct billing countries and cities
SELECT DISTINCT BillingCountry, BillingState
FROM Invoice
WHERE BillingCountry IN ('USA', 'Canada', 'Brazil', 'Australia')

### distinct: count(DISTINCT …) per year | ordered
SELECT strftime('%Y', i.InvoiceDate) AS year,
       count(DISTINCT i.CustomerId) AS customers,
       count(DISTINCT il.TrackId) AS tracks,
       count(DISTINCT t.AlbumId) AS albums
FROM Invoice i
JOIN InvoiceLine il ON il.InvoiceId = i.InvoiceId
JOIN Track t ON t.TrackId = il.TrackId
GROUP BY year
ORDER BY year

### null: COALESCE, IFNULL and NULLIF on optional customer fields | ordered
SELECT CustomerId,
       coalesce(Company, State, Country) AS label,
       ifnull(Fax, 'no fax') AS fax,
       nullif(State, 'CA') AS state_unless_ca,
       Company IS NULL AS private
FROM Customer
ORDER BY CustomerId

### null: tracks without a composer, per genre (IS NULL, count of column vs rows)
SELECT GenreId, count(*) AS tracks, count(Composer) AS with_composer,
       sum(Composer IS NULL) AS without_composer,
       round(100.0 * sum(Composer IS NULL) / count(*), 1) AS pct_missing
FROM Track
GROUP BY GenreId

### string: names cleaned and formatted | ordered
SELECT CustomerId,
       upper(LastName) || ', ' || FirstName AS display,
       lower(Email) AS email,
       length(FirstName || LastName) AS name_len,
       substr(Phone, 1, 6) AS phone_prefix,
       replace(trim(coalesce(PostalCode, '')), '-', '') AS postcode,
       printf('%05d', CustomerId) AS code,
       format('%s (%s)', City, Country) AS place,
       concat_ws(' / ', City, State, Country) AS full_place,
       ltrim(rtrim('  ' || FirstName || '  ')) AS trimmed,
       hex(substr(LastName, 1, 2)) AS hex2,
       unicode(FirstName) AS first_code,
       char(65, 66) AS ab,
       quote(Company) AS quoted_company
FROM Customer
ORDER BY CustomerId
LIMIT 20

### string: case-insensitive comparison and sorting (COLLATE NOCASE, IS NOT DISTINCT FROM) | ordered
SELECT ArtistId, Name
FROM Artist
WHERE Name COLLATE NOCASE BETWEEN 'a' AND 'b'
  AND Name IS NOT DISTINCT FROM Name
  AND ArtistId IS DISTINCT FROM 0
ORDER BY Name COLLATE NOCASE, ArtistId

### string: longest and shortest track titles, with string_agg of initials | ordered
SELECT length(Name) AS len, count(*) AS tracks,
       string_agg(substr(Name, 1, 1), '' ORDER BY TrackId) AS initials
FROM Track
WHERE length(Name) <= 3 OR length(Name) >= 100
GROUP BY len
ORDER BY len

### math: track size and length statistics with math functions | ordered
SELECT GenreId,
       round(avg(Milliseconds) / 1000.0, 2) AS avg_s,
       ceil(max(Milliseconds) / 60000.0) AS max_minutes_up,
       floor(min(Milliseconds) / 60000.0) AS min_minutes_down,
       round(sqrt(avg(Milliseconds * Milliseconds * 1.0) - avg(Milliseconds) * avg(Milliseconds)) / 1000.0, 2) AS stddev_s,
       round(pow(2, 10)) AS kib,
       abs(min(Bytes) - max(Bytes)) AS byte_range,
       round(log10(max(Bytes)), 3) AS log_bytes,
       max(Milliseconds) % 1000 AS ms_part,
       sign(-GenreId) AS sgn,
       round(pi(), 5) AS pi
FROM Track
GROUP BY GenreId
ORDER BY GenreId

### math: tracks by rowid with CAST to REAL and integer division | ordered
SELECT rowid, TrackId, Milliseconds / 1000 AS whole_seconds,
       CAST(Milliseconds AS REAL) / 1000 AS seconds,
       Bytes / (1024 * 1024) AS mib
FROM Track
WHERE rowid BETWEEN 1 AND 12
ORDER BY rowid

### math: price statistics on invoice lines with CAST and rounding
SELECT UnitPrice, Quantity, count(*) AS lines,
       round(sum(UnitPrice * Quantity), 2) AS revenue,
       CAST(round(UnitPrice * 100) AS INTEGER) AS cents,
       round(UnitPrice * 1.2, 3) AS gross,
       trunc(UnitPrice) AS whole,
       mod(CAST(UnitPrice * 100 AS INTEGER), 7) AS m7
FROM InvoiceLine
GROUP BY UnitPrice, Quantity

### introspection: columns of Track (pragma_table_info) | ordered
SELECT cid, name, type, "notnull", dflt_value, pk
FROM pragma_table_info('Track')
ORDER BY cid

### introspection: every foreign key of every table (sqlite_schema × pragma_foreign_key_list) | ordered
SELECT m.name AS tbl, f.id, f.seq, f."from", f."table", f."to"
FROM sqlite_schema AS m
JOIN pragma_foreign_key_list(m.name) AS f
WHERE m.type = 'table'
ORDER BY m.name, f.id, f.seq

### introspection: tables and indexes in sqlite_schema | ordered
SELECT type, name, tbl_name
FROM sqlite_schema
WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'
ORDER BY type, name

### introspection: column count and primary key per table | ordered
SELECT m.name AS tbl,
       count(*) AS columns,
       group_concat(CASE WHEN p.pk > 0 THEN p.name END, ',' ORDER BY p.pk) AS primary_key
FROM sqlite_master m, pragma_table_info(m.name) p
WHERE m.type = 'table'
GROUP BY m.name
ORDER BY m.name

### introspection: tables listed by pragma_table_list with their column counts | ordered
SELECT l.name, l.type, l.ncol, (SELECT count(*) FROM pragma_table_info(l.name)) AS columns
FROM pragma_table_list AS l
WHERE l.schema = 'main' AND l.name NOT LIKE 'sqlite_%'
ORDER BY l.name

### introspection: indexes of InvoiceLine and their columns (lower-case name) | ordered
SELECT il.name AS idx, il."unique", ii.seqno, ii.name AS col
FROM pragma_index_list('invoiceline') il
JOIN pragma_index_info(il.name) ii
ORDER BY il.name, ii.seqno

### values: genres picked from a VALUES list | ordered
WITH wanted(name, priority) AS (
  VALUES ('Rock', 1), ('Jazz', 2), ('Classical', 3), ('Ska', 4)
)
SELECT w.priority, w.name, g.GenreId, count(t.TrackId) AS tracks
FROM wanted w
LEFT JOIN Genre g ON g.Name = w.name
LEFT JOIN Track t ON t.GenreId = g.GenreId
GROUP BY w.priority
ORDER BY w.priority

### values: a bare VALUES statement
VALUES (1, 'one', 1.5), (2, 'two', NULL), (3, 'three', 3.25)

### limit: third page of 20 tracks (LIMIT … OFFSET) | ordered
SELECT TrackId, Name, Milliseconds
FROM Track
ORDER BY Milliseconds DESC, TrackId
LIMIT 20 OFFSET 40

### limit: the LIMIT offset, count form | ordered
SELECT InvoiceId, Total FROM Invoice ORDER BY Total DESC, InvoiceId LIMIT 5, 10

### order: customers by company, NULLS LAST | ordered
SELECT CustomerId, Company, Country
FROM Customer
ORDER BY Company NULLS LAST, CustomerId

### order: employees by manager descending, NULLS FIRST, ordinal column | ordered
SELECT ReportsTo, EmployeeId, LastName
FROM Employee
ORDER BY 1 DESC NULLS FIRST, 2

### filter: invoice counts split by size with FILTER clauses | ordered
SELECT BillingCountry,
       count(*) AS invoices,
       count(*) FILTER (WHERE Total >= 10) AS large,
       round(sum(Total) FILTER (WHERE Total < 5), 2) AS small_revenue,
       round(avg(Total) FILTER (WHERE strftime('%Y', InvoiceDate) = '2013'), 2) AS avg_2013
FROM Invoice
GROUP BY BillingCountry
ORDER BY invoices DESC, BillingCountry

### filter: FILTER on a window aggregate | ordered
SELECT InvoiceId, CustomerId, Total,
       count(*) FILTER (WHERE Total > 5) OVER (PARTITION BY CustomerId ORDER BY InvoiceId) AS big_so_far
FROM Invoice
WHERE CustomerId IN (1, 2)
ORDER BY InvoiceId

### syntax: trailing line comment | ordered
SELECT GenreId, Name FROM Genre ORDER BY GenreId -- every genre

### syntax: ending with a semicolon | ordered
SELECT MediaTypeId, Name FROM MediaType ORDER BY MediaTypeId;

### syntax: semicolon then a comment | ordered
SELECT PlaylistId, Name FROM Playlist ORDER BY PlaylistId; -- done

### syntax: leading block comment | ordered
/* Which artists have the most albums? */
SELECT ArtistId, count(*) AS albums
FROM Album
GROUP BY ArtistId
ORDER BY albums DESC, ArtistId
LIMIT 10

### syntax: comments inside the query
SELECT Country, -- the country
       count(*) /* customers */ AS n
FROM Customer
/* only the big markets */
WHERE Country IN ('USA', 'Canada')
GROUP BY Country

### syntax: double-quoted identifiers | ordered
SELECT "t"."TrackId", "t"."Name" AS "Track name", "g"."Name" AS "Genre"
FROM "Track" AS "t"
JOIN "Genre" AS "g" ON "g"."GenreId" = "t"."GenreId"
WHERE "t"."TrackId" < 30
ORDER BY "t"."TrackId"

### syntax: [bracketed] and `backquoted` identifiers | ordered
SELECT [il].[InvoiceLineId], [il].[UnitPrice] * [il].[Quantity] AS [Line Total], `i`.`InvoiceDate`
FROM [InvoiceLine] [il]
JOIN `Invoice` `i` ON `i`.`InvoiceId` = [il].[InvoiceId]
WHERE [il].[InvoiceId] = 98
ORDER BY [il].[InvoiceLineId]

### syntax: lower-case keywords, lower-case table names and a column alias without AS
select c.country, count(*) n
from customer c join invoice i on i.customerid = c.customerid
group by c.country
having n > 30

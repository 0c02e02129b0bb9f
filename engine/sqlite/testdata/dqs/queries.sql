-- Queries in the style of Spider's gold SQL that write text in double quotes
-- (dqs_test.go). Each block: "### <database>: <what> | <expect>" then the SQL.
-- <expect> is "ran" (the guard must run it, with SQLite's own DQS-enabled
-- result), or "unknown_column: <hint text>" (a name close to a column: the
-- guard keeps the error, with that hint). "| ordered" compares rows in order.
-- The databases are the .sql files beside this one.

### flight_2: country of an airline | ran
SELECT Country FROM AIRLINES WHERE Airline = "JetBlue Airways"
### flight_2: abbreviation of an airline | ran
SELECT Abbreviation FROM AIRLINES WHERE Airline = "JetBlue Airways"
### flight_2: airline by abbreviation | ran
SELECT Airline, Country FROM AIRLINES WHERE Abbreviation = "UAL"
### flight_2: airlines of a country | ran
SELECT count(*) FROM AIRLINES WHERE Country = "USA"
### flight_2: airport of a city | ran
SELECT AirportCode, AirportName FROM AIRPORTS WHERE City = "Alton"
### flight_2: city and country of an airport code | ran
SELECT City, Country FROM AIRPORTS WHERE AirportCode = "ORD"
### flight_2: flights from an airport | ran
SELECT count(*) FROM FLIGHTS WHERE SourceAirport = "APG"
### flight_2: flights to an airport | ran
SELECT count(*) FROM FLIGHTS WHERE DestAirport = "ORD"
### flight_2: flights of United Airlines (text containing a column's name) | ran
SELECT count(*) FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T2.Airline = T1.uid WHERE T1.Airline = "United Airlines"
### flight_2: flight numbers of an airline | ran
SELECT T1.FlightNo FROM FLIGHTS AS T1 JOIN AIRLINES AS T2 ON T2.uid = T1.Airline WHERE T2.Airline = "United Airlines"
### flight_2: flights of an airline from an airport | ran
SELECT count(*) FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T2.Airline = T1.uid WHERE T1.Airline = "United Airlines" AND T2.SourceAirport = "ORD"
### flight_2: flights into a city | ran
SELECT count(*) FROM FLIGHTS AS T1 JOIN AIRPORTS AS T2 ON T1.DestAirport = T2.AirportCode WHERE T2.City = "Chicago"
### flight_2: flights out of a city with a trailing space | ran
SELECT count(*) FROM FLIGHTS AS T1 JOIN AIRPORTS AS T2 ON T1.SourceAirport = T2.AirportCode WHERE T2.City = "Aberdeen "
### flight_2: flights from one city to another | ran
SELECT count(*) FROM FLIGHTS AS T1 JOIN AIRPORTS AS T2 ON T1.DestAirport = T2.AirportCode JOIN AIRPORTS AS T3 ON T1.SourceAirport = T3.AirportCode WHERE T2.City = "Ashley" AND T3.City = "Aberdeen "
### flight_2: Kansas City (text ending in a column's name) | ran
SELECT AirportCode FROM AIRPORTS WHERE City = "Kansas City"
### flight_2: an apostrophe: O'Hare | ran
SELECT AirportCode, City FROM AIRPORTS WHERE AirportName = "Chicago O'Hare International"
### flight_2: an apostrophe in a city | ran
SELECT count(*) FROM FLIGHTS AS T1 JOIN AIRPORTS AS T2 ON T1.SourceAirport = T2.AirportCode WHERE T2.City = "Coeur d'Alene"
### flight_2: LIKE with double quotes | ran
SELECT AirportName FROM AIRPORTS WHERE AirportName LIKE "%International%"
### flight_2: LIKE with an apostrophe | ran
SELECT AirportName FROM AIRPORTS WHERE AirportName LIKE "%O'Hare%"
### flight_2: airlines in a list | ran
SELECT uid FROM AIRLINES WHERE Airline IN ("United Airlines", "Delta Airlines", "JetBlue Airways")
### flight_2: airlines not in a list | ran
SELECT count(*) FROM AIRLINES WHERE Abbreviation NOT IN ("UAL", "SWA")
### flight_2: airlines with flights from two airports (INTERSECT) | ran
SELECT T1.Airline FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T1.uid = T2.Airline WHERE T2.SourceAirport = "ORD" INTERSECT SELECT T1.Airline FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T1.uid = T2.Airline WHERE T2.SourceAirport = "APG"
### flight_2: airlines from one airport and not another (EXCEPT) | ran
SELECT T1.Airline FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T1.uid = T2.Airline WHERE T2.SourceAirport = "ORD" EXCEPT SELECT T1.Airline FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T1.uid = T2.Airline WHERE T2.SourceAirport = "YYZ"
### flight_2: flights from or to a city (OR) | ran
SELECT count(*) FROM FLIGHTS AS T1 JOIN AIRPORTS AS T2 ON T1.DestAirport = T2.AirportCode OR T1.SourceAirport = T2.AirportCode WHERE T2.City = "Chicago"
### flight_2: text in the ON clause | ran
SELECT T2.FlightNo FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T2.Airline = T1.uid AND T1.Abbreviation = "JetBlue"
### flight_2: the same text in ON and WHERE | ran
SELECT T2.FlightNo FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T2.Airline = T1.uid AND T2.SourceAirport = "ORD" WHERE T2.DestAirport <> "ORD"
### flight_2: text equal to a table's name, table not read | ran
SELECT count(*) FROM AIRLINES WHERE Airline = "flights"
### flight_2: text equal to a table's name, table read | ran
SELECT count(*) FROM FLIGHTS AS T1 JOIN AIRPORTS AS T2 ON T1.SourceAirport = T2.AirportCode WHERE T2.AirportName = "airports"
### flight_2: airports without flights from them (NOT IN subquery) | ran
SELECT AirportName FROM AIRPORTS WHERE AirportCode NOT IN (SELECT SourceAirport FROM FLIGHTS WHERE Airline = 1) AND Country = "United States"
### flight_2: subquery with text | ran
SELECT count(*) FROM FLIGHTS WHERE Airline = (SELECT uid FROM AIRLINES WHERE Airline = "JetBlue Airways")
### flight_2: CASE WHEN with text | ran
SELECT Airline, CASE WHEN Country = "USA" THEN "domestic" ELSE "foreign" END AS kind FROM AIRLINES
### flight_2: text as a result column | ran
SELECT "carrier named", Airline FROM AIRLINES WHERE uid < 4
### flight_2: a label one character from a column's name reads as the column (the rule's price) | unknown_column: did you mean Airline?
SELECT "Airline:", Airline FROM AIRLINES WHERE uid < 4
### flight_2: a column in double quotes and text in double quotes | ran
SELECT "Airline", "Country" FROM AIRLINES WHERE "Abbreviation" = "UAL"
### flight_2: qualified column in double quotes with text | ran
SELECT T1."Airline" FROM AIRLINES AS T1 WHERE T1."Country" = "Canada"
### flight_2: a double-quoted alias and text | ran
SELECT count(*) AS "number of flights" FROM FLIGHTS WHERE SourceAirport = "ORD"
### flight_2: ORDER BY a double-quoted alias | ran | ordered
SELECT Airline AS "name" FROM AIRLINES WHERE Country = "USA" ORDER BY "name"
### flight_2: GROUP BY with text in HAVING | ran
SELECT T1.Airline, count(*) FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T1.uid = T2.Airline GROUP BY T1.Airline HAVING T1.Country = "USA"
### flight_2: airline with most flights from a city | ran | ordered
SELECT T1.Airline FROM AIRLINES AS T1 JOIN FLIGHTS AS T2 ON T1.uid = T2.Airline JOIN AIRPORTS AS T3 ON T2.SourceAirport = T3.AirportCode WHERE T3.City = "Chicago" GROUP BY T1.Airline ORDER BY count(*) DESC, T1.Airline LIMIT 1
### flight_2: the empty string | ran
SELECT count(*) FROM AIRLINES WHERE Country <> ""
### flight_2: a misspelt column in double quotes | unknown_column: did you mean Airline?
SELECT count(*) FROM AIRLINES WHERE "Airlne" = 'JetBlue Airways'
### flight_2: a column of another table in double quotes | unknown_column: airports.AirportName is in a table this query does not read yet
SELECT "AirportName" FROM FLIGHTS
### flight_2: a column written with a space | unknown_column: did you mean AirportCode?
SELECT "Airport Code" FROM AIRPORTS WHERE City = "Chicago"

### concert_singer: singers of a country | ran
SELECT Name FROM singer WHERE Country = "France"
### concert_singer: count of singers of a country | ran
SELECT count(*) FROM singer WHERE country = "France"
### concert_singer: average age of French singers | ran
SELECT avg(age), min(age), max(age) FROM singer WHERE country = "France"
### concert_singer: male singers (one-letter text) | ran
SELECT Name, Song_Name FROM singer WHERE Is_male = "T"
### concert_singer: concerts of a year (text compared with a TEXT column) | ran
SELECT count(*) FROM concert WHERE YEAR = "2014"
### concert_singer: concerts in either of two years | ran
SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.Year = "2014" OR T1.Year = "2015" GROUP BY T2.name
### concert_singer: stadiums with concerts in both years (INTERSECT) | ran
SELECT T2.name, T2.location FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.Year = "2014" INTERSECT SELECT T2.name, T2.location FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.Year = "2015"
### concert_singer: stadiums without a concert in a year | ran
SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert WHERE YEAR = "2014")
### concert_singer: singers in concerts of a year | ran
SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS T3 ON T1.concert_id = T3.concert_id WHERE T3.year = "2014"
### concert_singer: songs with a word (LIKE) | ran
SELECT name, country FROM singer WHERE song_name LIKE "%Hey%"
### concert_singer: an apostrophe in a stadium's name | ran
SELECT Location, Capacity FROM stadium WHERE Name = "Stark's Park"
### concert_singer: an apostrophe in a singer's name | ran
SELECT Country FROM singer WHERE Name = "O'Brien"
### concert_singer: text equal to a table whose columns start with its name | unknown_column: did you mean concert_ID or concert_Name?
SELECT concert_Name FROM concert WHERE Theme = "concert"
### concert_singer: text equal to a table's name (Song_Name = "Stadium") | ran
SELECT Name FROM singer WHERE Song_Name = "Stadium"
### concert_singer: singers not from a country, by age | ran | ordered
SELECT Name, Age FROM singer WHERE Country != "France" ORDER BY Age DESC
### concert_singer: countries other than two | ran
SELECT DISTINCT Country FROM singer WHERE Country NOT IN ("France", "Netherlands")
### concert_singer: concert themes with a word | ran
SELECT concert_Name, Theme FROM concert WHERE Theme LIKE "Free%"
### concert_singer: CASE with text in THEN | ran
SELECT Name, CASE Is_male WHEN "T" THEN "yes" WHEN "F" THEN "no" ELSE "unknown" END FROM singer
### concert_singer: a word that sits inside a column's name reads as the column (the rule's price) | unknown_column: did you mean Is_male?
SELECT Name, CASE Is_male WHEN "T" THEN "male" ELSE "female" END FROM singer
### concert_singer: text inside a CTE | ran
WITH french AS (SELECT Singer_ID, Name FROM singer WHERE Country = "France") SELECT count(*) FROM french
### concert_singer: concerts per stadium location (UNION) | ran
SELECT Name FROM stadium WHERE Location = "Raith Rovers" UNION SELECT Name FROM stadium WHERE Location = "Ayr United"
### concert_singer: UNION ALL of two filters | ran
SELECT Name FROM singer WHERE Country = "France" UNION ALL SELECT Name FROM singer WHERE Country = "Ireland"
### concert_singer: double-quoted column, text and an alias | ran
SELECT "Name" AS "singer name", "Age" FROM singer WHERE "Country" = "France" AND "Is_male" = "F"
### concert_singer: a misspelt column (one letter) | unknown_column: did you mean Country?
SELECT Name FROM singer WHERE "Contry" = 'France'
### concert_singer: two letters swapped | unknown_column: did you mean Capacity?
SELECT "Capcaity" FROM stadium
### concert_singer: an invented column name | unknown_column: did you mean singer.Name
SELECT "SingerName" FROM singer JOIN singer_in_concert USING (Singer_ID)

### pets_1: pets of a type | ran
SELECT count(*) FROM pets WHERE PetType = "dog"
### pets_1: weight of a type | ran
SELECT max(weight), petType FROM pets GROUP BY petType HAVING petType <> "bird"
### pets_1: students with a cat | ran
SELECT T1.Fname FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "cat"
### pets_1: female students with a dog | ran
SELECT count(*) FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T2.petid = T3.petid WHERE T1.sex = "F" AND T3.pettype = "dog"
### pets_1: students with a cat or a dog | ran
SELECT DISTINCT T1.Fname FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "cat" OR T3.pettype = "dog"
### pets_1: students with a cat and a dog (INTERSECT) | ran
SELECT T1.Fname FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "cat" INTERSECT SELECT T1.Fname FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "dog"
### pets_1: students without a cat (NOT IN subquery) | ran
SELECT stuid FROM student EXCEPT SELECT T1.stuid FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "cat"
### pets_1: major and age of students without a cat | ran
SELECT major, age FROM student WHERE stuid NOT IN (SELECT T1.stuid FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "cat")
### pets_1: students with a dog but no cat | ran
SELECT T1.fname, T1.age FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "dog" AND T1.stuid NOT IN (SELECT T1.stuid FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = "cat")
### pets_1: pet type and weight of the youngest dog | ran | ordered
SELECT pettype, weight FROM pets WHERE pettype = "dog" ORDER BY pet_age LIMIT 1
### pets_1: last name with an apostrophe | ran
SELECT Fname, Age FROM Student WHERE LName = "O'Neil"
### pets_1: students of a city code | ran
SELECT count(*) FROM Student WHERE city_code = "BAL" AND Sex = "M"
### pets_1: text in a scalar subquery | ran
SELECT Fname FROM Student WHERE Age > (SELECT avg(Age) FROM Student WHERE Sex = "F")
### pets_1: EXISTS with text | ran
SELECT Fname FROM Student AS S WHERE EXISTS (SELECT 1 FROM Has_Pet AS H JOIN Pets AS P ON P.PetID = H.PetID WHERE H.StuID = S.StuID AND P.PetType = "bird")
### pets_1: count by sex, text in FILTER | ran
SELECT count(*) FILTER (WHERE Sex = "F"), count(*) FILTER (WHERE Sex = "M") FROM Student
### pets_1: a misspelt column | unknown_column: did you mean PetType?
SELECT count(*) FROM Pets WHERE "PetTyp" = 'dog'
### pets_1: a column in another case and spelling | unknown_column: did you mean pet_age?
SELECT "PetAge" FROM Pets

### car_1: makers of a country | ran
SELECT count(*) FROM CAR_MAKERS AS T1 JOIN COUNTRIES AS T2 ON T1.Country = T2.CountryId WHERE T2.CountryName = "usa"
### car_1: models of a maker | ran
SELECT count(*) FROM MODEL_LIST AS T1 JOIN CAR_MAKERS AS T2 ON T1.Maker = T2.Id WHERE T2.FullName = "American Motor Company"
### car_1: models by a maker's full name | ran
SELECT T1.Model FROM MODEL_LIST AS T1 JOIN CAR_MAKERS AS T2 ON T1.Maker = T2.Id WHERE T2.FullName = "General Motors"
### car_1: makers of a continent | ran
SELECT T3.Maker FROM CONTINENTS AS T1 JOIN COUNTRIES AS T2 ON T1.ContId = T2.Continent JOIN CAR_MAKERS AS T3 ON T2.CountryId = T3.Country WHERE T1.Continent = "europe"
### car_1: countries of a continent | ran
SELECT count(*) FROM COUNTRIES AS T1 JOIN CONTINENTS AS T2 ON T1.Continent = T2.ContId WHERE T2.Continent = "europe"
### car_1: the car of a make | ran
SELECT T1.Horsepower FROM CARS_DATA AS T1 JOIN CAR_NAMES AS T2 ON T1.Id = T2.MakeId WHERE T2.Make = "amc hornet sportabout (sw)"
### car_1: cars of a model | ran
SELECT avg(T2.Weight) FROM CAR_NAMES AS T1 JOIN CARS_DATA AS T2 ON T1.MakeId = T2.Id WHERE T1.Model = "volvo"
### car_1: fastest volvo | ran | ordered
SELECT T1.cylinders FROM CARS_DATA AS T1 JOIN CAR_NAMES AS T2 ON T1.Id = T2.MakeId WHERE T2.Model = "volvo" ORDER BY T1.accelerate ASC LIMIT 1
### car_1: cars of a maker | ran
SELECT count(*) FROM CAR_MAKERS AS T1 JOIN MODEL_LIST AS T2 ON T1.Id = T2.Maker JOIN CAR_NAMES AS T3 ON T2.model = T3.model WHERE T1.maker = "ford"
### car_1: a model's name | ran
SELECT count(*) FROM CAR_NAMES WHERE Model = "fiat"
### car_1: models that are not a maker's | ran
SELECT DISTINCT T2.Model FROM CAR_NAMES AS T1 JOIN MODEL_LIST AS T2 ON T1.Model = T2.Model JOIN CAR_MAKERS AS T3 ON T2.Maker = T3.Id WHERE T3.FullName != "Ford Motor Company"
### car_1: makers from a country by name (subquery) | ran
SELECT Maker FROM CAR_MAKERS WHERE Country IN (SELECT CountryId FROM COUNTRIES WHERE CountryName = "japan")
### car_1: countries with a maker, or italy | ran
SELECT T1.CountryName FROM COUNTRIES AS T1 JOIN CAR_MAKERS AS T2 ON T1.CountryId = T2.Country GROUP BY T1.CountryId HAVING count(*) > 2 UNION SELECT T1.CountryName FROM COUNTRIES AS T1 JOIN CAR_MAKERS AS T2 ON T1.CountryId = T2.Country JOIN MODEL_LIST AS T3 ON T2.Id = T3.Maker WHERE T3.Model = "fiat"
### car_1: text "null" in a TEXT column | ran
SELECT count(*) FROM CARS_DATA WHERE MPG = "null"
### car_1: numeric text compared with an INTEGER column (affinity) | ran
SELECT count(*) FROM CARS_DATA WHERE Year = "1970"
### car_1: numeric text in arithmetic | ran
SELECT Id, Weight + "10" FROM CARS_DATA WHERE Cylinders = "4" AND Year > "1972"
### car_1: makes with a word (LIKE) | ran
SELECT Make FROM CAR_NAMES WHERE Make LIKE "%deluxe%"
### car_1: text in CASE and an aggregate | ran
SELECT sum(CASE WHEN T2.Continent = "europe" THEN 1 ELSE 0 END), sum(CASE WHEN T2.Continent = "asia" THEN 1 ELSE 0 END) FROM COUNTRIES AS T1 JOIN CONTINENTS AS T2 ON T1.Continent = T2.ContId
### car_1: text with a hyphen | ran
SELECT MakeId FROM CAR_NAMES WHERE Make = "citroen ds-21 pallas"
### car_1: an invented column name (prefix) | unknown_column: CountryName?
SELECT "Country" FROM COUNTRIES WHERE CountryId = 1
### car_1: an invented column with an underscore | unknown_column: did you mean FullName?
SELECT "full_name" FROM CAR_MAKERS

### employee_hire_evaluation: employees of a city | ran
SELECT count(*) FROM employee WHERE city = "Bristol"
### employee_hire_evaluation: employees of two cities | ran
SELECT name FROM employee WHERE city = "Bristol" OR city = "Bath"
### employee_hire_evaluation: cities with employees under 30 except one | ran
SELECT city FROM employee WHERE age < 30 AND city <> "Wasps" GROUP BY city HAVING count(*) > 1
### employee_hire_evaluation: manager of a shop | ran
SELECT Manager_name, District FROM shop WHERE Name = "FC Haka"
### employee_hire_evaluation: shops of a location | ran
SELECT count(*) FROM shop WHERE Location = "Helsinki" OR Location = "Espoo"
### employee_hire_evaluation: text with a non-ASCII letter | ran
SELECT Name FROM shop WHERE Manager_name = "Kai Nyyssönen"
### employee_hire_evaluation: full-time hires of a shop | ran
SELECT count(*) FROM hiring AS T1 JOIN shop AS T2 ON T1.Shop_ID = T2.Shop_ID WHERE T2.Name = "FC Haka" AND T1.Is_full_time = "T"
### employee_hire_evaluation: bonus of an employee | ran
SELECT sum(T2.Bonus) FROM employee AS T1 JOIN evaluation AS T2 ON T1.Employee_ID = T2.Employee_ID WHERE T1.Name = "George Chuter"
### employee_hire_evaluation: employees awarded in a year | ran
SELECT T1.Name FROM employee AS T1 JOIN evaluation AS T2 ON T1.Employee_ID = T2.Employee_ID WHERE T2.Year_awarded = "2016"
### employee_hire_evaluation: employees hired from a year on | ran
SELECT T2.Name FROM hiring AS T1 JOIN employee AS T2 ON T1.Employee_ID = T2.Employee_ID WHERE T1.Start_from >= "2010"
### employee_hire_evaluation: names with a word | ran
SELECT Name FROM employee WHERE Name LIKE "%Mark%" OR Name LIKE "Lee %"
### employee_hire_evaluation: a short word two letters from a column's name | ran
SELECT count(*) FROM employee WHERE City = "Sale"
### employee_hire_evaluation: a misspelt column | unknown_column: did you mean Manager_name?
SELECT "Manager_nme" FROM shop
### employee_hire_evaluation: a column of another table | unknown_column: evaluation.Bonus is in a table this query does not read yet
SELECT Name FROM employee WHERE "bonus" > 3000

### course_teach: teacher of the math course | ran
SELECT T3.Name FROM course_arrange AS T1 JOIN course AS T2 ON T1.Course_ID = T2.Course_ID JOIN teacher AS T3 ON T1.Teacher_ID = T3.Teacher_ID WHERE T2.Course = "Math"
### course_teach: teachers from two hometowns | ran
SELECT Name FROM teacher WHERE Hometown = "Little Lever Urban District" OR Hometown = "Turton Urban District"
### course_teach: teachers not from a hometown | ran
SELECT Name FROM teacher WHERE Hometown != "Little Lever Urban District"
### course_teach: teachers of an age (numeric text) | ran
SELECT Name FROM teacher WHERE Age = "32" OR Age = "33"
### course_teach: teachers aged in a list | ran
SELECT Hometown FROM teacher WHERE Age IN ("32", "33", "45")
### course_teach: courses of a teacher | ran
SELECT T2.Course FROM course_arrange AS T1 JOIN course AS T2 ON T1.Course_ID = T2.Course_ID JOIN teacher AS T3 ON T1.Teacher_ID = T3.Teacher_ID WHERE T3.Name = "Anne Walker"
### course_teach: courses starting in May | ran
SELECT Course FROM course WHERE Staring_Date LIKE "% May"
### course_teach: an invented column that starts with a real one | unknown_column: did you mean course.Course or teacher.Name?
SELECT T2.Name FROM course AS T1 JOIN course_arrange AS T3 ON T1.Course_ID = T3.Course_ID JOIN teacher AS T2 ON T2.Teacher_ID = T3.Teacher_ID WHERE "Course_Name" = 'Math'

### world_1: cities of a country | ran
SELECT T2.Name FROM country AS T1 JOIN city AS T2 ON T1.Code = T2.CountryCode WHERE T1.Name = "Netherlands"
### world_1: population of a region | ran
SELECT sum(Population), max(GNP) FROM country WHERE Region = "Western Europe"
### world_1: countries of a continent | ran
SELECT count(*) FROM country WHERE continent = "Asia"
### world_1: official languages of a country | ran
SELECT T2.Language FROM country AS T1 JOIN countrylanguage AS T2 ON T1.Code = T2.CountryCode WHERE T1.Name = "Aruba" AND T2.IsOfficial = "T"
### world_1: countries speaking English and French (INTERSECT) | ran
SELECT T1.Name FROM country AS T1 JOIN countrylanguage AS T2 ON T1.Code = T2.CountryCode WHERE T2.Language = "English" INTERSECT SELECT T1.Name FROM country AS T1 JOIN countrylanguage AS T2 ON T1.Code = T2.CountryCode WHERE T2.Language = "French"
### world_1: countries speaking English or Dutch | ran
SELECT count(*) FROM country AS T1 JOIN countrylanguage AS T2 ON T1.Code = T2.CountryCode WHERE T2.Language = "English" OR T2.Language = "Dutch"
### world_1: countries not speaking English | ran
SELECT Name FROM country WHERE Code NOT IN (SELECT CountryCode FROM countrylanguage WHERE Language = "English")
### world_1: countries not speaking English, EXCEPT form | ran
SELECT Code FROM country EXCEPT SELECT CountryCode FROM countrylanguage WHERE Language = "English"
### world_1: republics in Africa | ran
SELECT Name FROM country WHERE GovernmentForm = "Republic" AND Continent = "Africa"
### world_1: an apostrophe and an accent | ran
SELECT Code, HeadOfState FROM country WHERE Name = "Côte d'Ivoire"
### world_1: government forms with a word | ran
SELECT DISTINCT GovernmentForm FROM country WHERE GovernmentForm LIKE "%Republic%"
### world_1: head of state shared | ran
SELECT Name FROM country WHERE HeadOfState = "Beatrix"
### world_1: average life expectancy outside a form | ran
SELECT avg(LifeExpectancy) FROM country WHERE GovernmentForm != "Republic"
### world_1: languages of Asia (nested IN) | ran
SELECT DISTINCT Language FROM countrylanguage WHERE CountryCode IN (SELECT Code FROM country WHERE Continent = "Asia")
### world_1: district with a hyphen and accents | ran
SELECT Name FROM city WHERE District = "Île-de-France"
### world_1: Kansas City, text ending in a word that is no column here | ran
SELECT Population FROM city WHERE Name = "Kansas City"
### world_1: New York (two words) | ran
SELECT CountryCode FROM city WHERE Name = "New York" AND District = "New York"
### world_1: text that is one dash | ran
SELECT Name FROM city WHERE District = "–"
### world_1: the most populous city of a continent | ran | ordered
SELECT T2.Name FROM country AS T1 JOIN city AS T2 ON T1.Code = T2.CountryCode WHERE T1.Continent = "Europe" ORDER BY T2.Population DESC LIMIT 1
### world_1: percentages of a language | ran
SELECT T1.Name, T2.Percentage FROM country AS T1 JOIN countrylanguage AS T2 ON T1.Code = T2.CountryCode WHERE T2.Language = "Arabic"
### world_1: text in a window's PARTITION BY is a constant | ran
SELECT Name, rank() OVER (PARTITION BY "all" ORDER BY Population DESC) FROM city WHERE CountryCode = "USA"
### world_1: text compared in a join condition and HAVING | ran
SELECT T1.Continent, count(*) FROM country AS T1 JOIN countrylanguage AS T2 ON T1.Code = T2.CountryCode AND T2.IsOfficial = "T" GROUP BY T1.Continent HAVING T1.Continent <> "Asia"
### world_1: text in coalesce | ran
SELECT Name, coalesce(IndepYear, "never") FROM country WHERE Region = "Caribbean"
### world_1: text in string functions | ran
SELECT upper(Name) || " (" || Code || ")" FROM country WHERE Continent = "Europe"
### world_1: text in a CTE with a double-quoted name | ran
WITH "eu" AS (SELECT Code, Name FROM country WHERE Continent = "Europe") SELECT count(*) FROM "eu" JOIN city ON city.CountryCode = "eu".Code
### world_1: a misspelt column (two letters off in a long name) | unknown_column: did you mean LifeExpectancy?
SELECT avg("LifExpectncy") FROM country
### world_1: a column written in words | unknown_column: did you mean GovernmentForm?
SELECT "government form" FROM country

### tvshow: channels of a country | ran
SELECT count(*) FROM TV_Channel WHERE Country = "Italy"
### tvshow: series of a channel | ran
SELECT T2.Episode FROM TV_Channel AS T1 JOIN TV_series AS T2 ON T1.id = T2.Channel WHERE T1.series_name = "Sky Radio"
### tvshow: cartoons by a director | ran
SELECT Title FROM Cartoon WHERE Directed_by = "Ben Jones"
### tvshow: cartoons by either of two directors | ran
SELECT count(*) FROM Cartoon WHERE Directed_by = "Ben Jones" OR Directed_by = "Brandon Vietti"
### tvshow: cartoons written by someone | ran
SELECT Title FROM Cartoon WHERE Written_by = "Todd Casey"
### tvshow: cartoon with punctuation | ran
SELECT Directed_by FROM Cartoon WHERE Title = "The Rise of the Blue Beetle!"
### tvshow: countries of a cartoon's channel | ran
SELECT T1.Country FROM TV_Channel AS T1 JOIN Cartoon AS T2 ON T1.id = T2.Channel WHERE T2.Title = "The Rise of the Blue Beetle!"
### tvshow: channels without a director's cartoons | ran
SELECT id FROM TV_Channel EXCEPT SELECT channel FROM cartoon WHERE directed_by = "Ben Jones"
### tvshow: channels with both directors (INTERSECT) | ran
SELECT T1.series_name FROM TV_Channel AS T1 JOIN Cartoon AS T2 ON T1.id = T2.Channel WHERE T2.Directed_by = "Michael Chang" INTERSECT SELECT T1.series_name FROM TV_Channel AS T1 JOIN Cartoon AS T2 ON T1.id = T2.Channel WHERE T2.Directed_by = "Ben Jones"
### tvshow: a series with an apostrophe | ran
SELECT Air_Date, Rating FROM TV_series WHERE Episode = "Da Dad's Day"
### tvshow: episodes of some | ran
SELECT Episode FROM TV_series WHERE Episode IN ("A Love of a Lifetime", "Blowback", "No Such Episode")
### tvshow: language and content of channels | ran
SELECT Language, count(*) FROM TV_Channel WHERE Content = "music" GROUP BY Language
### tvshow: channels not in English | ran
SELECT series_name FROM TV_Channel WHERE Language != "English"
### tvshow: a package with a plus sign | ran
SELECT series_name FROM TV_Channel WHERE Package_Option = "Sky Famiglia + Sky HD"
### tvshow: aspect ratio text with a slash | ran
SELECT series_name FROM TV_Channel WHERE Pixel_aspect_ratio_PAR = "4:3 / 16:9"
### tvshow: a column whose name starts with a digit, in double quotes, and text | ran
SELECT "18_49_Rating_Share" FROM TV_series WHERE Episode = "Friendly Skies"
### tvshow: text equal to a table's name (Cartoon) | ran
SELECT series_name FROM TV_Channel WHERE Content = "cartoon"
### tvshow: text equal to a table's name, with that table read | ran
SELECT count(*) FROM Cartoon AS T1 JOIN TV_Channel AS T2 ON T1.Channel = T2.id WHERE T2.series_name = "Cartoon Network"
### tvshow: viewers as text | ran
SELECT Episode FROM TV_series WHERE Viewers_m > "8"
### tvshow: a misspelt column | unknown_column: did you mean Directed_by?
SELECT Title FROM Cartoon WHERE "Directed_By_" = 'Ben Jones'
### tvshow: a column of another table | unknown_column: TV_series.Episode is in a table this query does not read yet
SELECT "Episode" FROM Cartoon

-- Airlines, airports and flights (the shape of Spider's flight_2).
CREATE TABLE airlines (uid INTEGER PRIMARY KEY, Airline TEXT, Abbreviation TEXT, Country TEXT);
CREATE TABLE airports (City TEXT, AirportCode TEXT PRIMARY KEY, AirportName TEXT, Country TEXT, CountryAbbrev TEXT);
CREATE TABLE flights (Airline INTEGER, FlightNo INTEGER, SourceAirport TEXT, DestAirport TEXT,
  PRIMARY KEY (Airline, FlightNo), FOREIGN KEY (SourceAirport) REFERENCES airports(AirportCode),
  FOREIGN KEY (DestAirport) REFERENCES airports(AirportCode));
INSERT INTO airlines VALUES (1, 'United Airlines', 'UAL', 'USA'), (2, 'US Airways', 'USAir', 'USA'),
  (3, 'Delta Airlines', 'Delta', 'USA'), (4, 'Southwest Airlines', 'SWA', 'USA'), (5, 'American Airlines', 'AAL', 'USA'),
  (6, 'Northwest Airlines', 'NWA', 'USA'), (7, 'Continental Airlines', 'COA', 'USA'), (8, 'JetBlue Airways', 'JetBlue', 'USA'),
  (9, 'Frontier Airlines', 'FFT', 'USA'), (10, 'AirTran Airways', 'AirTran', 'USA'), (11, 'Allegiant Air', 'Allegiant', 'USA'),
  (12, 'Virgin America', 'Virgin', 'USA'), (13, 'Air Canada', 'ACA', 'Canada');
INSERT INTO airports VALUES ('Aberdeen ', 'APG', 'Phillips AAF ', 'United States ', 'US '),
  ('Aberdeen ', 'ABR', 'Municipal ', 'United States ', 'US '), ('Abilene ', 'DYS', 'Dyess AFB ', 'United States ', 'US '),
  ('Abilene ', 'ABI', 'Municipal ', 'United States ', 'US '), ('Anthony ', 'ANY', 'Anthony ', 'United States ', 'US '),
  ('Chicago', 'ORD', 'Chicago O''Hare International', 'United States', 'US'), ('Kansas City', 'MCI', 'Kansas City International', 'United States', 'US'),
  ('Coeur d''Alene', 'COE', 'Coeur d''Alene Airport', 'United States', 'US'), ('Ashley', 'ASY', 'Ashley', 'United States', 'US'),
  ('Toronto', 'YYZ', 'Pearson International', 'Canada', 'CA'), ('Alton', 'ALN', 'St. Louis Regional', 'United States', 'US');
INSERT INTO flights VALUES (1, 28, 'APG', 'ASY'), (1, 29, 'ASY', 'APG'), (1, 44, 'ANY', 'ORD'), (1, 45, 'ORD', 'ANY'),
  (2, 54, 'ABR', 'ORD'), (2, 55, 'ORD', 'ABR'), (3, 90, 'MCI', 'ORD'), (3, 91, 'ORD', 'MCI'), (4, 104, 'COE', 'MCI'),
  (5, 200, 'ORD', 'YYZ'), (5, 201, 'YYZ', 'ORD'), (8, 300, 'ABI', 'DYS'), (8, 301, 'DYS', 'ABI'), (8, 302, 'ORD', 'APG'),
  (9, 410, 'ALN', 'ORD'), (13, 500, 'YYZ', 'MCI'), (1, 600, 'ORD', 'COE');

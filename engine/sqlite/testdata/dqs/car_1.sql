-- Car makers, models and cars (the shape of Spider's car_1).
CREATE TABLE continents (ContId INTEGER PRIMARY KEY, Continent TEXT);
CREATE TABLE countries (CountryId INTEGER PRIMARY KEY, CountryName TEXT, Continent INTEGER REFERENCES continents(ContId));
CREATE TABLE car_makers (Id INTEGER PRIMARY KEY, Maker TEXT, FullName TEXT, Country TEXT REFERENCES countries(CountryId));
CREATE TABLE model_list (ModelId INTEGER PRIMARY KEY, Maker INTEGER REFERENCES car_makers(Id), Model TEXT UNIQUE);
CREATE TABLE car_names (MakeId INTEGER PRIMARY KEY, Model TEXT REFERENCES model_list(Model), Make TEXT);
CREATE TABLE cars_data (Id INTEGER PRIMARY KEY REFERENCES car_names(MakeId), MPG TEXT, Cylinders INTEGER, Edispl REAL,
  Horsepower TEXT, Weight INTEGER, Accelerate REAL, Year INTEGER);
INSERT INTO continents VALUES (1, 'america'), (2, 'europe'), (3, 'asia'), (4, 'africa'), (5, 'australia');
INSERT INTO countries VALUES (1, 'usa', 1), (2, 'germany', 2), (3, 'france', 2), (4, 'japan', 3), (5, 'italy', 2),
  (6, 'sweden', 2), (7, 'uk', 2), (8, 'korea', 3), (9, 'russia', 2), (10, 'nigeria', 4), (11, 'australia', 5);
INSERT INTO car_makers VALUES (1, 'amc', 'American Motor Company', '1'), (2, 'volkswagen', 'Volkswagen', '2'),
  (3, 'bmw', 'BMW', '2'), (4, 'gm', 'General Motors', '1'), (5, 'ford', 'Ford Motor Company', '1'),
  (6, 'chrysler', 'Chrysler', '1'), (7, 'citroen', 'Citroen', '3'), (8, 'nissan', 'Nissan Motors', '4'),
  (9, 'fiat', 'Fiat', '5'), (11, 'honda', 'Honda', '4'), (12, 'mazda', 'Mazda', '4'), (13, 'volvo', 'Volvo', '6'),
  (14, 'toyota', 'Toyota', '4'), (15, 'hyundai', 'Hyundai', '8');
INSERT INTO model_list VALUES (1, 1, 'amc'), (2, 2, 'audi'), (3, 3, 'bmw'), (4, 4, 'buick'), (5, 4, 'cadillac'),
  (6, 5, 'ford'), (7, 6, 'chrysler'), (8, 7, 'citroen'), (9, 8, 'datsun'), (10, 9, 'fiat'), (11, 11, 'honda'),
  (12, 12, 'mazda'), (13, 13, 'volvo'), (14, 14, 'toyota'), (15, 2, 'volkswagen'), (16, 15, 'hyundai');
INSERT INTO car_names VALUES (1, 'chevrolet', 'chevrolet chevelle malibu'), (2, 'buick', 'buick skylark 320'),
  (3, 'amc', 'amc rebel sst'), (4, 'ford', 'ford torino'), (5, 'ford', 'ford galaxie 500'), (6, 'volvo', 'volvo 144ea'),
  (7, 'toyota', 'toyota corona mark ii'), (8, 'datsun', 'datsun pl510'), (9, 'volkswagen', 'volkswagen 1131 deluxe sedan'),
  (10, 'fiat', 'fiat 124b'), (11, 'amc', 'amc hornet sportabout (sw)'), (12, 'honda', 'honda civic'), (13, 'mazda', 'mazda rx2 coupe'),
  (14, 'bmw', 'bmw 2002'), (15, 'citroen', 'citroen ds-21 pallas'), (16, 'hyundai', 'hyundai pony');
INSERT INTO cars_data VALUES (1, '18', 8, 307, '130', 3504, 12, 1970), (2, '15', 8, 350, '165', 3693, 11.5, 1970),
  (3, '16', 8, 304, '150', 3433, 12, 1970), (4, '17', 8, 302, '140', 3449, 10.5, 1970), (5, '15', 8, 429, '198', 4341, 10, 1970),
  (6, '22', 4, 121, '112', 2933, 14.5, 1972), (7, '24', 4, 113, '95', 2372, 15, 1970), (8, '27', 4, 97, '88', 2130, 14.5, 1970),
  (9, '26', 4, 97, '46', 1835, 20.5, 1970), (10, '30', 4, 79, '67', 2074, 19.5, 1970), (11, '18', 6, 258, '110', 2962, 13.5, 1971),
  (12, '33', 4, 91, '53', 1795, 17.4, 1976), (13, '19', 3, 70, '97', 2330, 13.5, 1972), (14, '26', 4, 121, '113', 2234, 12.5, 1970),
  (15, '25', 4, 110, '87', 2672, 17.5, 1970), (16, 'null', 4, 98, '83', 2219, 16.5, 1974);

-- Countries, cities and languages (the shape of Spider's world_1, a few rows).
CREATE TABLE city (ID INTEGER PRIMARY KEY, Name TEXT, CountryCode TEXT, District TEXT, Population INTEGER);
CREATE TABLE country (Code TEXT PRIMARY KEY, Name TEXT, Continent TEXT, Region TEXT, SurfaceArea REAL, IndepYear INTEGER,
  Population INTEGER, LifeExpectancy REAL, GNP REAL, GovernmentForm TEXT, HeadOfState TEXT);
CREATE TABLE countrylanguage (CountryCode TEXT, Language TEXT, IsOfficial TEXT, Percentage REAL, PRIMARY KEY (CountryCode, Language));
INSERT INTO country VALUES ('ABW', 'Aruba', 'North America', 'Caribbean', 193, NULL, 103000, 78.4, 828, 'Nonmetropolitan Territory of The Netherlands', 'Beatrix'),
  ('AFG', 'Afghanistan', 'Asia', 'Southern and Central Asia', 652090, 1919, 22720000, 45.9, 5976, 'Islamic Emirate', 'Mohammad Omar'),
  ('AGO', 'Angola', 'Africa', 'Central Africa', 1246700, 1975, 12878000, 38.3, 6648, 'Republic', 'José Eduardo dos Santos'),
  ('NLD', 'Netherlands', 'Europe', 'Western Europe', 41526, 1581, 15864000, 78.3, 371362, 'Constitutional Monarchy', 'Beatrix'),
  ('USA', 'United States', 'North America', 'North America', 9363520, 1776, 278357000, 77.1, 8510700, 'Federal Republic', 'George W. Bush'),
  ('FRA', 'France', 'Europe', 'Western Europe', 551500, 843, 59225700, 78.8, 1424285, 'Republic', 'Jacques Chirac'),
  ('CIV', 'Côte d''Ivoire', 'Africa', 'Western Africa', 322463, 1960, 14786000, 45.2, 11345, 'Republic', 'Laurent Gbagbo'),
  ('JPN', 'Japan', 'Asia', 'Eastern Asia', 377829, -660, 126714000, 80.7, 3787042, 'Constitutional Monarchy', 'Akihito');
INSERT INTO city VALUES (1, 'Kabul', 'AFG', 'Kabol', 1780000), (2, 'Qandahar', 'AFG', 'Qandahar', 237500),
  (5, 'Amsterdam', 'NLD', 'Noord-Holland', 731200), (6, 'Rotterdam', 'NLD', 'Zuid-Holland', 593321),
  (56, 'Luanda', 'AGO', 'Luanda', 2022000), (129, 'Oranjestad', 'ABW', '–', 29034), (3793, 'New York', 'USA', 'New York', 8008278),
  (3794, 'Los Angeles', 'USA', 'California', 3694820), (3805, 'Kansas City', 'USA', 'Missouri', 441545),
  (2974, 'Paris', 'FRA', 'Île-de-France', 2125246), (1532, 'Tokyo', 'JPN', 'Tokyo-to', 7980230), (2813, 'Abidjan', 'CIV', 'Abidjan', 2500000);
INSERT INTO countrylanguage VALUES ('ABW', 'Dutch', 'T', 5.3), ('ABW', 'English', 'F', 9.5), ('ABW', 'Papiamento', 'F', 76.7),
  ('AFG', 'Dari', 'T', 32.1), ('AFG', 'Pashto', 'T', 52.4), ('AGO', 'Portuguese', 'T', 0), ('NLD', 'Dutch', 'T', 95.6),
  ('USA', 'English', 'T', 86.2), ('USA', 'Spanish', 'F', 7.5), ('FRA', 'French', 'T', 93.6), ('CIV', 'French', 'T', 0),
  ('JPN', 'Japanese', 'T', 99.1), ('NLD', 'Arabic', 'F', 0.9), ('FRA', 'Arabic', 'F', 2.5);

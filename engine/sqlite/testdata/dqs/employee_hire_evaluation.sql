-- Employees, shops, hiring and bonuses (the shape of Spider's employee_hire_evaluation).
CREATE TABLE employee (Employee_ID INTEGER PRIMARY KEY, Name TEXT, Age INTEGER, City TEXT);
CREATE TABLE shop (Shop_ID INTEGER PRIMARY KEY, Name TEXT, Location TEXT, District TEXT, Number_products INTEGER, Manager_name TEXT);
CREATE TABLE hiring (Shop_ID INTEGER, Employee_ID INTEGER PRIMARY KEY, Start_from TEXT, Is_full_time BOOL,
  FOREIGN KEY (Shop_ID) REFERENCES shop(Shop_ID), FOREIGN KEY (Employee_ID) REFERENCES employee(Employee_ID));
CREATE TABLE evaluation (Employee_ID TEXT, Year_awarded TEXT, Bonus REAL, PRIMARY KEY (Employee_ID, Year_awarded));
INSERT INTO employee VALUES (1, 'George Chuter', 23, 'Bristol'), (2, 'Lee Mears', 29, 'Bath'), (3, 'Mark Regan', 43, 'Bristol'),
  (4, 'Jason Hobson', 30, 'Bristol'), (5, 'Tim Payne', 29, 'Wasps'), (6, 'Andrew Sheridan', 28, 'Sale'),
  (7, 'Matt Stevens', 29, 'Bath'), (8, 'Phil Vickery', 40, 'Wasps'), (9, 'Steve Borthwick', 32, 'Bath'), (10, 'Louis Deacon', 36, 'Leicester');
INSERT INTO shop VALUES (1, 'FC Haka', 'Valkeakoski', 'Tehtaan kenttä', 3516, 'Olli Huttunen'),
  (2, 'HJK', 'Helsinki', 'Finnair Stadium', 10770, 'Antti Muurinen'), (3, 'FC Honka', 'Espoo', 'Tapiolan Urheilupuisto', 6000, 'Mika Lehkosuo'),
  (4, 'FC Inter', 'Turku', 'Veritas Stadion', 10000, 'Job Dragtsma'), (5, 'FF Jaro', 'Jakobstad', 'Jakobstads Centralplan', 5000, 'Mika Laurikainen'),
  (6, 'FC KooTeePee', 'Kotka', 'Arto Tolsa Areena', 4780, 'Tommi Kautonen'), (7, 'KuPS', 'Kuopio', 'Magnum Areena', 3500, 'Kai Nyyssönen');
INSERT INTO hiring VALUES (1, 1, '2009', 'T'), (1, 2, '2003', 'T'), (8, 3, '2011', 'F'), (4, 4, '2012', 'T'),
  (5, 5, '2013', 'T'), (2, 6, '2010', 'F'), (6, 7, '2008', 'T');
INSERT INTO evaluation VALUES ('1', '2011', 3000), ('2', '2015', 3200), ('1', '2016', 2900), ('4', '2017', 3200),
  ('7', '2018', 3200), ('10', '2016', 4000);

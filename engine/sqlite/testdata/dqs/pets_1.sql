-- Students and their pets (the shape of Spider's pets_1).
CREATE TABLE Student (StuID INTEGER PRIMARY KEY, LName VARCHAR(12), Fname VARCHAR(12), Age INTEGER, Sex VARCHAR(1),
  Major INTEGER, Advisor INTEGER, city_code VARCHAR(3));
CREATE TABLE Has_Pet (StuID INTEGER, PetID INTEGER, FOREIGN KEY (PetID) REFERENCES Pets(PetID), FOREIGN KEY (StuID) REFERENCES Student(StuID));
CREATE TABLE Pets (PetID INTEGER PRIMARY KEY, PetType VARCHAR(20), pet_age INTEGER, weight REAL);
INSERT INTO Student VALUES (1001, 'Smith', 'Linda', 18, 'F', 600, 1121, 'BAL'), (1002, 'Kim', 'Tracy', 19, 'F', 600, 7712, 'HKG'),
  (1003, 'Jones', 'Shiela', 21, 'F', 600, 7792, 'WAS'), (1004, 'Kumar', 'Dinesh', 20, 'M', 600, 8423, 'CHI'),
  (1005, 'Gompers', 'Paul', 26, 'M', 600, 1121, 'YYZ'), (1006, 'Schultz', 'Andy', 18, 'M', 600, 1148, 'BAL'),
  (1007, 'Apap', 'Lisa', 18, 'F', 600, 8918, 'PIT'), (1008, 'Nelson', 'Jandy', 20, 'F', 600, 9172, 'BAL'),
  (1009, 'O''Neil', 'Eric', 26, 'M', 520, 2192, 'PIT'), (1010, 'Lee', 'Derek', 17, 'M', 520, 2192, 'HOU');
INSERT INTO Pets VALUES (2001, 'cat', 3, 12.0), (2002, 'dog', 2, 13.4), (2003, 'dog', 1, 9.3), (2004, 'bird', 1, 0.4);
INSERT INTO Has_Pet VALUES (1001, 2001), (1002, 2002), (1002, 2003), (1009, 2004);

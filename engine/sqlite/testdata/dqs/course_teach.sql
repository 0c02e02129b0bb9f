-- Courses and teachers (the shape of Spider's course_teach).
CREATE TABLE course (Course_ID INTEGER PRIMARY KEY, Staring_Date TEXT, Course TEXT);
CREATE TABLE teacher (Teacher_ID INTEGER PRIMARY KEY, Name TEXT, Age TEXT, Hometown TEXT);
CREATE TABLE course_arrange (Course_ID INTEGER, Teacher_ID INTEGER, Grade INTEGER, PRIMARY KEY (Course_ID, Teacher_ID, Grade));
INSERT INTO course VALUES (1, '5 May', 'Language Arts'), (2, '6 May', 'Math'), (3, '7 May', 'Science'), (4, '9 May', 'History'),
  (5, '10 May', 'Bible'), (6, '11 May', 'Geography'), (7, '13 May', 'Sports'), (8, '14 May', 'French'), (9, '15 May', 'Health'),
  (10, '17 May', 'Music');
INSERT INTO teacher VALUES (1, 'Joseph Huts', '32', 'Blackrod Urban District'), (2, 'Gustaaf Deloor', '29', 'Bolton County Borough'),
  (3, 'Vicente Carretero', '26', 'Farnworth Municipal Borough'), (4, 'John Deloor', '33', 'Horwich Urban District'),
  (5, 'Kearsley Brown', '45', 'Kearsley Urban District'), (6, 'Anne Walker', '41', 'Little Lever Urban District'),
  (7, 'Lucy Wong', '39', 'Turton Urban District');
INSERT INTO course_arrange VALUES (2, 5, 1), (2, 3, 3), (3, 2, 5), (4, 6, 7), (5, 6, 1), (10, 7, 4), (2, 1, 2);

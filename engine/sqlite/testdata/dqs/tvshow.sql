-- TV channels, series and cartoons (the shape of Spider's tvshow).
CREATE TABLE TV_Channel (id TEXT PRIMARY KEY, series_name TEXT, Country TEXT, Language TEXT, Content TEXT,
  Pixel_aspect_ratio_PAR TEXT, Hight_definition_TV TEXT, Pay_per_view_PPV TEXT, Package_Option TEXT);
CREATE TABLE TV_series (id REAL PRIMARY KEY, Episode TEXT, Air_Date TEXT, Rating TEXT, Share REAL, "18_49_Rating_Share" TEXT,
  Viewers_m TEXT, Weekly_Rank REAL, Channel TEXT REFERENCES TV_Channel(id));
CREATE TABLE Cartoon (id REAL PRIMARY KEY, Title TEXT, Directed_by TEXT, Written_by TEXT, Original_air_date TEXT,
  Production_code REAL, Channel TEXT REFERENCES TV_Channel(id));
INSERT INTO TV_Channel VALUES ('700', 'Sky Radio', 'Italy', 'Italian', 'music', '4:3', 'no', 'no', 'Sky Famiglia'),
  ('701', 'Sky Music', 'Italy', 'Italian', 'music', '4:3', 'no', 'no', 'Sky Famiglia'),
  ('703', 'Music Box Italia', 'Italy', 'Italian', 'music', '4:3 / 16:9', 'no', 'no', 'Sky Famiglia'),
  ('717', 'MTV Hits', 'Italy', 'Italian', 'music', '16:9', 'no', 'no', 'Sky Famiglia'),
  ('728', 'Rock TV', 'Italy', 'Italian', 'music', '4:3', 'no', 'no', 'Sky Famiglia'),
  ('793', 'MTV Dance', 'United Kingdom', 'English', 'music', '4:3', 'no', 'no', 'Sky Famiglia + Sky HD'),
  ('794', 'Cartoon Network', 'United Kingdom', 'English', 'cartoon', '16:9', 'yes', 'no', 'Option');
INSERT INTO TV_series VALUES (1, 'A Love of a Lifetime', 'September 24, 2007', '5.8', 9, '3.5/9', '9.16', 43, '700'),
  (2, 'Friendly Skies', 'October 1, 2007', '5.3', 9, '3.2/8', '8.23', 50, '701'), (3, 'Blowback', 'October 8, 2007', '4.4', 7, '2.9/7', '6.94', 61, '703'),
  (4, 'Da Dad''s Day', 'October 15, 2007', '4.4', 7, '2.6/6', '6.75', 67, '703'), (5, 'Steal the Show', 'October 22, 2007', '4.2', 7, '2.6/7', '6.34', 64, '794');
INSERT INTO Cartoon VALUES (1, 'The Rise of the Blue Beetle!', 'Ben Jones', 'Michael Jelenic', 'November14,2008', 101, '700'),
  (2, 'Terror on Dinosaur Island!', 'Brandon Vietti', 'Steven Melching', 'November21,2008', 102, '701'),
  (3, 'Evil Under the Sea!', 'Brandon Vietti', 'Joseph Kuhr', 'December5,2008', 103, '703'),
  (4, 'Day of the Dark Knight!', 'Michael Chang', 'J. M. DeMatteis', 'January2,2009', 104, '794'),
  (5, 'Enter the Outsiders!', 'Ben Jones', 'Todd Casey', 'January9,2009', 105, '794'),
  (6, 'Dawn of the Dead Man!', 'Michael Chang', 'Todd Casey', 'January16,2009', 106, '728');

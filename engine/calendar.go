package engine

// ValidDate reports whether y-m-d is a day of the proleptic Gregorian
// calendar (month 1–12, day within the month, 29 February in leap years).
// Chart suggestions, imports and exports all recognise dates with it.
func ValidDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

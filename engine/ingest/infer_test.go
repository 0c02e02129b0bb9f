package ingest

import (
	"reflect"
	"strings"
	"testing"

	"querent/engine/imports"
)

// infer feeds values (line 2, 3, …) to a new Inferrer.
func infer(values ...string) *Inferrer {
	c := NewInferrer()
	for i, v := range values {
		c.Add(int64(i+2), v)
	}
	return c
}

func TestInferrer(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		typ    string
		reason []string       // substrings of the reason
		conv   map[string]any // raw → converted
	}{
		// INTEGER
		{"integers", []string{"1", "-20", "+3", "0", "9223372036854775807"}, imports.TypeInteger,
			[]string{"every value is a whole number"},
			map[string]any{"-20": int64(-20), "+3": int64(3), "9223372036854775807": int64(9223372036854775807)}},
		{"thousands separators", []string{"6,186", "19,708", "1,234,567", "12"}, imports.TypeInteger,
			[]string{"thousands separators removed"}, map[string]any{"6,186": int64(6186), "1,234,567": int64(1234567)}},
		{"surrounding spaces", []string{" 12", "13 ", "\t14"}, imports.TypeInteger, nil, map[string]any{" 12": int64(12)}},
		{"0/1 stays integer", []string{"0", "1", "1", "0"}, imports.TypeInteger, nil, map[string]any{"1": int64(1)}},
		{"missing values", []string{"1", "", "NA", "n/a", "-", "#N/A", "null", "2"}, imports.TypeInteger,
			[]string{"6 values missing (empty, NA, n/a, -, #N/A), stored as NULL"}, map[string]any{"NA": nil, "": nil, "#N/A": nil}},
		// REAL
		{"decimals", []string{"1.5", "-0.25", "3", "1e3", ".5", "2E-2"}, imports.TypeReal,
			[]string{"every value is a number"}, map[string]any{"1.5": 1.5, "3": 3.0, "1e3": 1000.0, ".5": 0.5, "2E-2": 0.02}},
		{"US grouping with decimals", []string{"1,234.56", "12.5"}, imports.TypeReal,
			[]string{"thousands separators removed"}, map[string]any{"1,234.56": 1234.56}},
		{"European decimals", []string{"12,5", "1.234,56", "-3,25", "7"}, imports.TypeReal,
			[]string{"European-style"}, map[string]any{"12,5": 12.5, "1.234,56": 1234.56, "-3,25": -3.25, "7": 7.0}},
		{"European thousands", []string{"1.234", "12.345.678", "5"}, imports.TypeInteger, []string{"written with . between thousands"},
			map[string]any{"1.234": int64(1234), "12.345.678": int64(12345678)}},
		{"both styles read every value: US wins", []string{"1.234", "2.500"}, imports.TypeReal, nil,
			map[string]any{"1.234": 1.234, "2.500": 2.5}},
		{"European whole with decimal comma column", []string{"1.234", "2,5"}, imports.TypeReal,
			[]string{"decimal comma"}, map[string]any{"1.234": 1234.0, "2,5": 2.5}},
		{"percentages", []string{"12%", "12.5 %", "-3%", "100%", "N/A"}, imports.TypeReal,
			[]string{"percentages", "12% → 0.12", "1 value missing (N/A)"},
			map[string]any{"12%": 0.12, "12.5 %": 0.125, "-3%": -0.03, "100%": 1.0}},
		{"European percentages", []string{"12,5%", "3%"}, imports.TypeReal, []string{"decimal commas"}, map[string]any{"12,5%": 0.125}},
		{"currency", []string{"$5.00", "($12.50)", "$1,234.99", "-$3", "$-4"}, imports.TypeReal,
			[]string{"amounts in $", "accounting parentheses read as negative"},
			map[string]any{"$5.00": 5.0, "($12.50)": -12.5, "$1,234.99": 1234.99, "-$3": -3.0, "$-4": -4.0}},
		{"whole currency", []string{"€5", "10 €", "(€3)"}, imports.TypeInteger, []string{"amounts in €", "every amount is whole"},
			map[string]any{"€5": int64(5), "10 €": int64(10), "(€3)": int64(-3)}},
		{"currency with plain numbers", []string{"£5", "7", "£1,000"}, imports.TypeInteger, nil, map[string]any{"£1,000": int64(1000)}},
		{"yen", []string{"¥500", "¥1,200"}, imports.TypeInteger, nil, map[string]any{"¥1,200": int64(1200)}},
		// BOOLEAN
		{"yes/no", []string{"yes", "No", "YES", "no", ""}, imports.TypeBoolean, []string{"yes/no", "stored as 1/0"},
			map[string]any{"yes": int64(1), "No": int64(0), "": nil}},
		{"true/false", []string{"True", "False", "TRUE"}, imports.TypeBoolean, []string{"true/false"}, map[string]any{"True": int64(1), "False": int64(0)}},
		{"t/f y/n and 1/0", []string{"t", "f", "Y", "n", "1", "0"}, imports.TypeBoolean, []string{"t/f or y/n or 1/0"},
			map[string]any{"t": int64(1), "n": int64(0), "1": int64(1)}},
		// DATE
		{"iso dates", []string{"2021-01-05", "1999-12-31", "2020-02-29"}, imports.TypeDate, []string{"dates written yyyy-mm-dd"},
			map[string]any{"2021-01-05": "2021-01-05"}},
		{"iso slash", []string{"2021/1/5"}, imports.TypeDate, []string{"yyyy/mm/dd"}, map[string]any{"2021/1/5": "2021-01-05"}},
		{"m/d/yy", []string{"1/21/77", "9/23/77", "8/3/79", "1/20/17", "2/8/23"}, imports.TypeDate,
			[]string{"dates written m/d/yy", "a second part over 12 on line 2 shows the order", "two-digit years 00–68 read as 20xx, 69–99 as 19xx"},
			map[string]any{"1/21/77": "1977-01-21", "1/20/17": "2017-01-20", "2/8/23": "2023-02-08", "12/31/68": "2068-12-31", "1/1/69": "1969-01-01"}},
		{"d/m/yyyy", []string{"01/02/2021", "25/12/2020", "3/4/2021"}, imports.TypeDate,
			[]string{"d/m/yyyy", "a first part over 12 on line 3 shows the order"},
			map[string]any{"01/02/2021": "2021-02-01", "25/12/2020": "2020-12-25"}},
		{"d.m.yyyy", []string{"31.12.2020", "1.2.2021"}, imports.TypeDate, []string{"d.m.yyyy"}, map[string]any{"1.2.2021": "2021-02-01"}},
		{"d-Mon-yy", []string{"5-Jan-21", "17-dec-99"}, imports.TypeDate, []string{"d-Mon-yy"},
			map[string]any{"5-Jan-21": "2021-01-05", "17-dec-99": "1999-12-17"}},
		{"d Mon yyyy", []string{"5 January 2021", "17 Sep 2020", "1 Sept 2019"}, imports.TypeDate, []string{"d Mon yyyy"},
			map[string]any{"5 January 2021": "2021-01-05", "1 Sept 2019": "2019-09-01"}},
		{"Mon d, yyyy", []string{"January 5, 2021", "Feb 28 2020"}, imports.TypeDate, []string{"Mon d, yyyy"},
			map[string]any{"January 5, 2021": "2021-01-05", "Feb 28 2020": "2020-02-28"}},
		{"datetimes", []string{"2017-08-27 00:05:34", "2017-08-27T13:05", "2017-08-28"}, imports.TypeDateTime,
			[]string{"date-times written", "dates without a time read as midnight"},
			map[string]any{"2017-08-27 00:05:34": "2017-08-27 00:05:34", "2017-08-27T13:05": "2017-08-27 13:05:00", "2017-08-28": "2017-08-28 00:00:00"}},
		{"AM/PM", []string{"3/14/2021 2:05 PM", "3/15/2021 12:00 am", "3/16/2021 12:30:15 pm"}, imports.TypeDateTime,
			[]string{"m/d/yyyy hh:mm AM/PM"},
			map[string]any{"3/14/2021 2:05 PM": "2021-03-14 14:05:00", "3/15/2021 12:00 am": "2021-03-15 00:00:00", "3/16/2021 12:30:15 pm": "2021-03-16 12:30:15"}},
		{"same day and month decides nothing but needs nothing", []string{"1/1/2020", "2/2/2020"}, imports.TypeDate, nil,
			map[string]any{"2/2/2020": "2020-02-02"}},
		// TEXT fallbacks
		{"text", []string{"Carter", "Reagan"}, imports.TypeText, []string{`the values are text (line 2 holds "Carter")`},
			map[string]any{"Carter": "Carter", "": nil, "N/A": "N/A", " ": " "}},
		{"not a number", []string{"1", "2", "approx. 5", "4"}, imports.TypeText,
			[]string{`kept as text: line 4 holds "approx. 5", which is not a number`}, map[string]any{"1": "1"}},
		{"leading zeros", []string{"02134", "10001", "007"}, imports.TypeText,
			[]string{`line 2 holds "02134", a code with a leading zero`}, map[string]any{"02134": "02134"}},
		{"beyond int64", []string{"1", "92233720368547758070"}, imports.TypeText, []string{"too large"}, nil},
		{"inf and nan", []string{"1.5", "inf"}, imports.TypeText, []string{`"inf", which is not a number`}, nil},
		{"nan", []string{"NaN", "1"}, imports.TypeText, nil, nil},
		{"mixed number styles", []string{"1,5", "2.5"}, imports.TypeText, []string{"another number style"}, nil},
		{"mixed currencies", []string{"$5", "€5"}, imports.TypeText, []string{"an amount in € while line 2 holds one in $"}, nil},
		{"parentheses without currency", []string{"5", "(5)"}, imports.TypeText, []string{`"(5)", which is not a number`}, nil},
		{"percentages and plain numbers", []string{"12%", "0.5"}, imports.TypeText, []string{`"0.5", a number without a % sign`}, nil},
		{"ambiguous dates", []string{"01/02/2021", "03/04/2021", "1/1/2021"}, imports.TypeText,
			[]string{`kept as text: dates such as "01/02/2021" (line 2) could be month/day or day/month`}, nil},
		{"conflicting date orders", []string{"12/25/2020", "25/12/2020"}, imports.TypeText, []string{"puts the day first, while line 2"}, nil},
		{"invalid date", []string{"2021-02-28", "2021-02-30"}, imports.TypeText, []string{`"2021-02-30", which is not a valid date`}, nil},
		{"fractional seconds", []string{"2021-01-01 10:00:00", "2021-01-01 10:00:00.5"}, imports.TypeText, []string{"fractional seconds"}, nil},
		{"time zone", []string{"2021-01-01T10:00:00Z"}, imports.TypeText, []string{"time zone"}, nil},
		{"yes/no with other words", []string{"Yes", "No", "Yes (runoff only)"}, imports.TypeText,
			[]string{`"Yes (runoff only)", which is not a yes/no value`}, nil},
		{"all empty", []string{"", "", ""}, imports.TypeText, []string{"every value is empty"}, map[string]any{"": nil}},
		{"all markers", []string{"N/A", "", "N/A"}, imports.TypeText, []string{"every value is empty or a missing-value marker (N/A)"},
			map[string]any{"N/A": "N/A", "": nil}},
		{"no values", nil, imports.TypeText, []string{"no values"}, nil},
	}
	for _, tt := range tests {
		c := infer(tt.values...)
		typ, reason := c.Result()
		if typ != tt.typ {
			t.Errorf("%s: type %s (%s), want %s", tt.name, typ, reason, tt.typ)
			continue
		}
		for _, r := range tt.reason {
			if !strings.Contains(reason, r) {
				t.Errorf("%s: reason %q lacks %q", tt.name, reason, r)
			}
		}
		conv := c.Converter()
		for raw, want := range tt.conv {
			if got := conv(raw); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: convert(%q) = %#v, want %#v", tt.name, raw, got, want)
			}
		}
		t.Logf("%-50s %-8s %s", tt.name, typ, reason)
	}
}

func TestInferrerCounts(t *testing.T) {
	tests := []struct {
		values          []string
		converted, kept int64
	}{
		{[]string{"1", "", "N/A", "2", " "}, 2, 0},
		{[]string{"a", "", "N/A", " "}, 0, 3},
		{[]string{"", ""}, 0, 0},
		{[]string{"1", "x"}, 0, 2},
	}
	for _, tt := range tests {
		conv, kept := infer(tt.values...).Counts()
		if conv != tt.converted || kept != tt.kept {
			t.Errorf("Counts(%q) = %d, %d; want %d, %d", tt.values, conv, kept, tt.converted, tt.kept)
		}
	}
}

// Values added out of line order: the reason still quotes the lowest line.
func TestInferrerOutOfOrder(t *testing.T) {
	c := NewInferrer()
	c.Add(10, "1")
	c.Add(57, "approx. 5")
	c.Add(3, "about 2")
	_, reason := c.Result()
	if want := `line 3 holds "about 2"`; !strings.Contains(reason, want) {
		t.Errorf("reason %q lacks %q", reason, want)
	}
}

// A long offending value is quoted short.
func TestInferrerLongValue(t *testing.T) {
	c := infer("1", strings.Repeat("é", 100))
	_, reason := c.Result()
	if len(reason) > 150 || !strings.Contains(reason, "…") {
		t.Errorf("reason not shortened: %q", reason)
	}
}

// The converter never aliases its input.
func TestConverterCopies(t *testing.T) {
	b := []byte("hello")
	conv := infer("hello").Converter()
	v := conv(unsafeString(b))
	b[0] = 'j'
	if v != "hello" {
		t.Errorf("converted value changed with its input: %v", v)
	}
}

func TestConverterUnseenValue(t *testing.T) {
	conv := infer("1", "2").Converter()
	if got := conv("three"); got != "three" {
		t.Errorf("unconvertible value: got %#v, want its text", got)
	}
}

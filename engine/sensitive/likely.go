package sensitive

import (
	"regexp"
	"strings"
	"unicode"

	"querent/engine"
)

// Likely is a column that looks like personal data: offered to the
// analyst at import and on open, never marked silently.
type Likely struct {
	Table  string `json:"table"`
	Column string `json:"column"`
	// Kind is what it looks like: email, phone, iban, national_id or
	// card (words key sensitive.kind.KIND).
	Kind string `json:"kind"`
	// By is "name" when its name says it, "values" when its sample values
	// do.
	By string `json:"by"`
}

// Name is the column's "Table.Column".
func (l Likely) Name() string { return l.Table + "." + l.Column }

// names are the column names that say what they hold, folded to letters
// and digits: email, e_mail, phone_number, IBAN, SSN…
var names = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"email", regexp.MustCompile(`^(e?mail|emailaddress|mailaddress|courriel|邮箱|电子邮件)$|email$|^email|mail$`)},
	{"phone", regexp.MustCompile(`^(phone|telephone|tel|mobile|cell|fax|portable|电话|手机)|(phone|mobile|fax|telephone)(number|no)?$`)},
	{"iban", regexp.MustCompile(`^iban|iban$|^(bic)?accountnumber$|^bankaccount`)},
	{"national_id", regexp.MustCompile(`^(ssn|socialsecurity(number)?|nationalid|nin|nir|insee|passport(number|no)?|taxid|身份证(号)?)$`)},
	{"card", regexp.MustCompile(`^(creditcard|cardnumber|ccnumber|pan)(number|no)?$`)},
}

var (
	emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$`)
	phoneRE = regexp.MustCompile(`^\+?[0-9][0-9 ()./-]{5,}[0-9]$`)
	ibanRE  = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`)
)

// FindLikely returns the columns of sch that look like personal data and
// are not marked yet: by their names, or by their sample values (most of
// them email addresses, phone numbers, IBANs or card numbers).
func FindLikely(sch *engine.Schema, marked *Set) []Likely {
	out := []Likely{}
	for _, t := range sch.Tables {
		if t.Internal {
			continue
		}
		for i, c := range t.Columns {
			if marked.Has(t.Name, c.Name) {
				continue
			}
			if kind := byName(c.Name); kind != "" {
				out = append(out, Likely{Table: t.Name, Column: c.Name, Kind: kind, By: "name"})
				continue
			}
			if kind := byValues(t, i, c.Name); kind != "" {
				out = append(out, Likely{Table: t.Name, Column: c.Name, Kind: kind, By: "values"})
			}
		}
	}
	return out
}

func byName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	n := b.String()
	for _, k := range names {
		if k.re.MatchString(n) {
			return k.kind
		}
	}
	return ""
}

// byValues reads the table's sample values of the column: a kind most of
// the non-empty ones (at least two) have.
func byValues(t *engine.Table, i int, name string) string {
	j := -1
	for k, c := range t.Samples.Columns {
		if c == name {
			j = k
		}
	}
	if j < 0 {
		return ""
	}
	counts := map[string]int{}
	n := 0
	for _, row := range t.Samples.Values {
		if j >= len(row) {
			continue
		}
		s, ok := row[j].(string)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		n++
		if k := valueKind(strings.TrimSpace(s)); k != "" {
			counts[k]++
		}
	}
	for _, k := range []string{"email", "iban", "card", "phone"} {
		if n >= 2 && counts[k]*4 >= n*3 {
			return k
		}
	}
	return ""
}

func valueKind(s string) string {
	switch {
	case emailRE.MatchString(s):
		return "email"
	case ibanRE.MatchString(strings.ReplaceAll(s, " ", "")):
		return "iban"
	}
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	compact := strings.NewReplacer(" ", "", "-", "").Replace(s)
	if digits >= 13 && digits <= 19 && len(compact) == digits && luhn(compact) {
		return "card"
	}
	if phoneRE.MatchString(s) && digits >= 7 && digits <= 15 && (strings.ContainsAny(s, " +()-.") || s[0] == '0') {
		return "phone"
	}
	return ""
}

// luhn reports whether the digits pass the Luhn check of card numbers.
func luhn(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

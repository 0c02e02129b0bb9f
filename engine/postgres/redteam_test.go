package postgres

type rtReport struct{}

func (r *rtReport) String() string { return "" }

var report = &rtReport{}

package profile_test

import (
	"querent/engine"
	"querent/engine/profile"
)

func engineRun() engine.RunOptions { return engine.RunOptions{MaxRows: profile.SuggestRows} }

package ask

// ChooseExamples is chooseExamples, for the tests of package ask_test.
var ChooseExamples = chooseExamples

// LooseSQL and PromptCut are looseSQL and promptCut, for the tests of
// package ask_test.
var (
	LooseSQL  = looseSQL
	PromptCut = promptCut
)

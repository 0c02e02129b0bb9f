package ask

// ChooseExamples is chooseExamples, for the tests of package ask_test.
var ChooseExamples = chooseExamples

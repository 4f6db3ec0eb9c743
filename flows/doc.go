// Package flows owns flows: runs recorded from the bus (the actions of agents as they are done,
// and what a person does with the mouse and keyboard) as steps with unique locators and the
// expects that prove them, and replayed without a model, every step waited for by
// subscription, acted and proven, the first failure reported with what a person needs to
// mend the flow.
//
//	rec := flows.NewRecorder(observer, commands)   // record: start, then stop answers the flow
//	run := flows.NewRunner(call, publish, subjects) // replay: each step through the endpoints' own handlers
package flows

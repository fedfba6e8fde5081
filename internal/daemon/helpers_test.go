package daemon

// simulatedPatient is the [source] of the tests that run the daemon live
// beside a broker: a 4-channel simulated patient at 20× real time with no
// seizures and no duration (a day of signal): it runs until the test
// stops it.
const simulatedPatient = `
[source]
type = "synth"
channels = 4
speed = 20
seizures = 0
`

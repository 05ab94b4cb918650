import Testing

/// Runs every transcript in Scenarios/ against the built binary.
@Suite struct ScenarioTests {
    @Test("scenario", arguments: Scenario.all)
    func scenario(_ name: String) throws {
        try Scenario.load(name).run()
    }

    @Test func scenariosExist() {
        #expect(Scenario.files.count >= 8)
    }
}

/// A count and its noun for messages: "1 item", "3 items".
func counted(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}

import VaultCrypto

/// A plaintext export as JSON: an array of one flat object per item, whose members are the
/// present fields as strings, in `PlainExportFields.names` order; one object a line.
/// Built in locked memory; read back by `FlatJSON.parseArrayOfObjects`.
enum PlainExportJSON {
    static func render(_ rows: [[(name: String, value: SecretBytes?)]]) throws -> SecretBytes {
        var output = SecretBytesBuilder(capacity: 256 * (rows.count + 1))
        output.append("[")
        for (number, row) in rows.enumerated() {
            output.append(number == 0 ? "\n" : ",\n")
            output.append("{")
            var first = true
            for field in row {
                guard let value = field.value else { continue }
                output.append(first ? "\"\(field.name)\":" : ",\"\(field.name)\":")
                first = false
                // Every value is UTF-8 here: a secret that is not went to secret_base64.
                output.append(try value.withUnsafeBytes { try FlatJSON.stringLiteral($0, field: field.name) })
            }
            output.append("}")
        }
        output.append(rows.isEmpty ? "]\n" : "\n]\n")
        return output.finish()
    }

    /// The objects of `bytes`, each as its fields by name. Throws `UsageError` naming the byte
    /// where the JSON goes wrong, or `Malformed` for an item that gives a field twice.
    static func parse(_ bytes: SecretBytes) throws -> [[String: SecretBytes]] {
        let objects = try bytes.withUnsafeBytes {
            try FlatJSON.parseArrayOfObjects(
                $0, hint: "a plaintext export in JSON is an array of objects of strings, as 'vault export --format json --plaintext' writes"
            )
        }
        return try objects.enumerated().map { number, members in
            var fields: [String: SecretBytes] = [:]
            for member in members {
                guard fields.updateValue(member.value, forKey: member.key) == nil else {
                    throw Malformed(item: number + 1, problem: "the field \(quoted(member.key)) is there twice")
                }
            }
            return fields
        }
    }

    /// An item of the array (1 is the first) and what is wrong with it.
    struct Malformed: Error {
        let item: Int
        let problem: String
    }
}

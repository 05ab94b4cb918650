import Foundation
import Testing
@testable import VaultCLI

/// Where `vault edit` may put the secret: only on a memory-backed file system.
@Suite struct EditBufferTests {
    @Test func aDiskBackedDirectoryIsNeverChosen() throws {
        let disk = FileManager.default.currentDirectoryPath
        #expect(EditBuffer.memoryBackedDirectory(runtimeDirectory: disk, sharedMemory: disk) == nil)
        #expect(EditBuffer.memoryBackedDirectory(runtimeDirectory: nil, sharedMemory: "/nonexistent") == nil)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/shm")))
    func sharedMemoryServesWhenTheRuntimeDirectoryIsOnDisk() {
        let disk = FileManager.default.currentDirectoryPath
        #expect(EditBuffer.memoryBackedDirectory(runtimeDirectory: disk) == "/dev/shm")
        #expect(EditBuffer.memoryBackedDirectory(runtimeDirectory: "/dev/shm", sharedMemory: disk) == "/dev/shm")
    }
}

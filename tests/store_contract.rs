//! The storage adapter contract (src/store/storage.rs) run against the built-in MemoryStorage.
//! Later storages call `storage_contract` the same way.

use mcp_tasks_wasm::store::contract::storage_contract;
use mcp_tasks_wasm::store::MemoryStorage;

#[test]
fn memory_storage_keeps_the_contract() {
    assert_eq!(storage_contract(MemoryStorage::new), Ok(()));
}

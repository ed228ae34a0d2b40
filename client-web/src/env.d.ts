// Vite client types: lets TypeScript accept `import "./style.css"`.
/// <reference types="vite/client" />

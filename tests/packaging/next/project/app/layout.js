export const metadata = { title: "mcp-tasks-wasm packaging probe" };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

// Prints the standalone sign-in page's markup (src/sign-in-page.tsx) for the build to put in signin.html.
import { renderToString } from 'react-dom/server';
import { SignInPage } from '../src/sign-in-page.tsx';

process.stdout.write(renderToString(<SignInPage />));
